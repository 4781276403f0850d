#!/usr/bin/env python3
"""Put [CLS] pooling and L2 normalization into bge-small-en-v1.5's ONNX graph.

The ONNX file langchain4j's Maven package ships (Xenova's export of
BAAI/bge-small-en-v1.5, quantized to int8) ends at the encoder:

    inputs:  input_ids, attention_mask, token_type_ids   int64 [batch, seq]
    output:  last_hidden_state                           float32 [batch, seq, 384]

embed/bert runs every model with the same two inputs and one pooled,
unit-length output, as scripts/model/convert.py builds MiniLM's. This adds
to the graph, without touching the encoder's weights:

    token_type_ids      = input_ids * 0 (one sentence: always type 0)
    sentence_embedding  = last_hidden_state[:, 0, :] / ||...||  ([CLS], as bge pools)

Usage: pool.py IN.onnx OUT.onnx
"""

import sys

import onnx
from onnx import TensorProto, helper


def main(src, dst):
    model = onnx.load(src)
    g = model.graph
    (tt,) = [i for i in g.input if i.name == "token_type_ids"]
    g.input.remove(tt)
    (hidden,) = [o for o in g.output if o.name == "last_hidden_state"]
    g.output.remove(hidden)
    g.initializer.extend([
        helper.make_tensor("lore_zero", TensorProto.INT64, [], [0]),
        helper.make_tensor("lore_cls", TensorProto.INT64, [], [0]),
    ])
    g.node.insert(0, helper.make_node("Mul", ["input_ids", "lore_zero"], ["token_type_ids"], name="lore_token_types"))
    g.node.extend([
        helper.make_node("Gather", ["last_hidden_state", "lore_cls"], ["lore_cls_state"], axis=1, name="lore_cls_pool"),
        helper.make_node("ReduceL2", ["lore_cls_state"], ["lore_norm"], axes=[1], keepdims=1, name="lore_norm"),
        helper.make_node("Div", ["lore_cls_state", "lore_norm"], ["sentence_embedding"], name="lore_normalize"),
    ])
    g.output.append(helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", 384]))
    onnx.checker.check_model(model)
    onnx.save(model, dst)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: pool.py IN.onnx OUT.onnx")
    main(sys.argv[1], sys.argv[2])
