#!/usr/bin/env python3
"""Convert the all-MiniLM-L6-v2 safetensors weights into one ONNX graph.

The graph is the whole sentence-transformers pipeline after tokenization:
BERT encoder, mean pooling over the attention mask, L2 normalization.

    inputs:  input_ids      int64 [batch, seq]
             attention_mask int64 [batch, seq]
    output:  sentence_embedding float32 [batch, 384], unit length

It is built node by node with onnx.helper from numpy arrays, so the
conversion needs numpy, safetensors and onnx only (no PyTorch). Token type
ids are always 0 for single sentences, so row 0 of the token type table is
folded into the position table.

Usage: convert.py MODEL_DIR OUT.onnx
"""

import json
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from safetensors.numpy import load_file

OPSET = 17  # LayerNormalization is a standard op from 17 on.


class Graph:
    """Accumulates nodes and initializers with unique names."""

    def __init__(self):
        self.nodes = []
        self.inits = []
        self.count = 0

    def name(self, hint):
        self.count += 1
        return f"{hint}_{self.count}"

    def const(self, hint, array):
        n = self.name(hint)
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(array), n))
        return n

    def op(self, op_type, inputs, hint=None, **attrs):
        out = self.name(hint or op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out


def build(weights, cfg):
    hidden = cfg["hidden_size"]
    heads = cfg["num_attention_heads"]
    head_dim = hidden // heads
    eps = float(cfg["layer_norm_eps"])
    g = Graph()
    f32 = lambda a: np.asarray(a, dtype=np.float32)
    w = lambda k: f32(weights[k])

    def layer_norm(x, prefix):
        return g.op("LayerNormalization", [x, g.const(prefix + "_g", w(prefix + ".weight")),
                                           g.const(prefix + "_b", w(prefix + ".bias"))],
                    axis=-1, epsilon=eps)

    def linear(x, prefix, scale_by=1.0):
        # torch stores Linear weights as [out, in]; MatMul wants [in, out].
        weight = w(prefix + ".weight").T * np.float32(scale_by)
        bias = w(prefix + ".bias") * np.float32(scale_by)
        y = g.op("MatMul", [x, g.const(prefix + "_w", weight)])
        return g.op("Add", [y, g.const(prefix + "_b", bias)])

    ids, mask = "input_ids", "attention_mask"

    # Embeddings: word + position (+ token type 0), then LayerNorm.
    word = g.op("Gather", [g.const("word_emb", w("embeddings.word_embeddings.weight")), ids], axis=0)
    pos_table = w("embeddings.position_embeddings.weight") + w("embeddings.token_type_embeddings.weight")[0]
    shape = g.op("Shape", [ids])
    seq = g.op("Slice", [shape, g.const("i1", np.array([1], np.int64)), g.const("i2", np.array([2], np.int64))])
    pos = g.op("Slice", [g.const("pos_emb", pos_table), g.const("i0", np.array([0], np.int64)), seq,
                         g.const("ax0", np.array([0], np.int64))])
    h = layer_norm(g.op("Add", [word, pos]), "embeddings.LayerNorm")

    # Additive attention bias: 0 where attended, a large negative where padded.
    maskf = g.op("Cast", [mask], to=TensorProto.FLOAT)
    inv = g.op("Sub", [g.const("one", np.array(1.0, np.float32)), maskf])
    bias = g.op("Mul", [inv, g.const("neg", np.array(-1e4, np.float32))])
    bias = g.op("Unsqueeze", [bias, g.const("ax12", np.array([1, 2], np.int64))])  # [B,1,1,S]

    split_shape = g.const("split_shape", np.array([0, 0, heads, head_dim], np.int64))
    merge_shape = g.const("merge_shape", np.array([0, 0, hidden], np.int64))
    half = g.const("half", np.array(0.5, np.float32))
    one = g.const("one_", np.array(1.0, np.float32))
    rsqrt2 = g.const("rsqrt2", np.array(1.0 / math.sqrt(2.0), np.float32))

    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."

        def heads_of(x, perm):
            return g.op("Transpose", [g.op("Reshape", [x, split_shape])], perm=perm)

        # The 1/sqrt(head_dim) score scale is folded into the query
        # projection, which saves a pass over the [B,H,S,S] scores.
        q = heads_of(linear(h, p + "attention.self.query", scale_by=1.0 / math.sqrt(head_dim)), [0, 2, 1, 3])  # [B,H,S,D]
        k = heads_of(linear(h, p + "attention.self.key"), [0, 2, 3, 1])    # [B,H,D,S]
        v = heads_of(linear(h, p + "attention.self.value"), [0, 2, 1, 3])  # [B,H,S,D]
        scores = g.op("Add", [g.op("MatMul", [q, k]), bias])
        probs = g.op("Softmax", [scores], axis=-1)
        ctx = g.op("Transpose", [g.op("MatMul", [probs, v])], perm=[0, 2, 1, 3])
        ctx = g.op("Reshape", [ctx, merge_shape])
        attn = linear(ctx, p + "attention.output.dense")
        h = layer_norm(g.op("Add", [attn, h]), p + "attention.output.LayerNorm")

        # Exact (erf) GELU, as BERT's "gelu" activation.
        inter = linear(h, p + "intermediate.dense")
        erf = g.op("Erf", [g.op("Mul", [inter, rsqrt2])])
        inter = g.op("Mul", [g.op("Mul", [inter, half]), g.op("Add", [erf, one])])
        out = linear(inter, p + "output.dense")
        h = layer_norm(g.op("Add", [out, h]), p + "output.LayerNorm")

    # Mean pooling over attended tokens, then L2 normalization, as
    # sentence-transformers' Pooling and Normalize modules do.
    m3 = g.op("Unsqueeze", [maskf, g.const("ax2", np.array([2], np.int64))])  # [B,S,1]
    summed = g.op("ReduceSum", [g.op("Mul", [h, m3]), g.const("ax1", np.array([1], np.int64))], keepdims=0)
    count = g.op("ReduceSum", [m3, g.const("ax1b", np.array([1], np.int64))], keepdims=0)  # [B,1]
    count = g.op("Max", [count, g.const("tiny", np.array(1e-9, np.float32))])
    mean = g.op("Div", [summed, count])
    norm = g.op("ReduceL2", [mean], axes=[-1], keepdims=1)  # axes is an attribute until opset 18
    norm = g.op("Max", [norm, g.const("eps12", np.array(1e-12, np.float32))])
    g.nodes.append(helper.make_node("Div", [mean, norm], ["sentence_embedding"], name="normalize"))

    graph = helper.make_graph(
        g.nodes, "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info(ids, TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info(mask, TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", hidden])],
        initializer=g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="lore scripts/model/convert.py")
    # ONNX Runtime 1.24 reads IR version 10 models; pin it so a newer onnx
    # package does not stamp a version the bundled runtime refuses.
    model.ir_version = 10
    onnx.checker.check_model(model)
    return model


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: convert.py MODEL_DIR OUT.onnx")
    model_dir, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(model_dir, "config.json")) as f:
        cfg = json.load(f)
    weights = load_file(os.path.join(model_dir, "model.safetensors"))
    model = build(weights, cfg)
    tmp = out + ".tmp"
    onnx.save(model, tmp)
    os.replace(tmp, out)  # never leave a half-written model behind
    print(f"wrote {out} ({os.path.getsize(out)} bytes, {len(model.graph.node)} nodes)")


if __name__ == "__main__":
    main()
