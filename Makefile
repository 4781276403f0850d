# model fetches and converts the built-in embedder (all-MiniLM-L6-v2) and
# ONNX Runtime into $(MODEL_DATA_DIR)/models/all-MiniLM-L6-v2; see
# scripts/model/fetch.sh. It does nothing when the files are already there.
MODEL_DATA_DIR ?= ./lore-data

.PHONY: model
model:
	scripts/model/fetch.sh $(MODEL_DATA_DIR)
