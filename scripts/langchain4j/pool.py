#!/usr/bin/env python3
"""Put pooling and L2 normalization into a langchain4j BERT encoder's graph.

The ONNX files of langchain4j's Maven embedding packages (Xenova's int8
exports of sentence-transformers/all-MiniLM-L6-v2, BAAI/bge-small-en-v1.5 and
intfloat/e5-small-v2) end at the encoder:

    inputs:  input_ids, attention_mask, token_type_ids   int64 [batch, seq]
    output:  last_hidden_state                           float32 [batch, seq, 384]

embed/bert runs every model with the same two inputs and one pooled,
unit-length output, as scripts/model/convert.py builds MiniLM's. This adds
to the graph, without touching the encoder's weights:

    token_type_ids      = input_ids * 0 (one sentence: always type 0)
    sentence_embedding  = pooled / ||pooled||, where pooled is
        cls:  last_hidden_state[:, 0, :]                    (as bge pools)
        mean: sum(last_hidden_state * mask) / sum(mask)     (as e5 pools: the
              average over real tokens)

Only opset-11 forms are used (axes as attributes), which both files import.

Usage: pool.py cls|mean IN.onnx OUT.onnx
"""

import sys

import onnx
from onnx import TensorProto, helper


def pool_nodes(pooling):
    """The nodes from last_hidden_state to lore_pooled, and their constants."""
    if pooling == "cls":
        return [helper.make_tensor("lore_cls", TensorProto.INT64, [], [0])], [
            helper.make_node("Gather", ["last_hidden_state", "lore_cls"], ["lore_pooled"], axis=1, name="lore_cls_pool"),
        ]
    if pooling == "mean":
        return [], [
            helper.make_node("Cast", ["attention_mask"], ["lore_mask_f"], to=TensorProto.FLOAT, name="lore_mask_cast"),
            helper.make_node("Unsqueeze", ["lore_mask_f"], ["lore_mask_3d"], axes=[2], name="lore_mask_unsqueeze"),
            helper.make_node("Mul", ["last_hidden_state", "lore_mask_3d"], ["lore_masked"], name="lore_mask_apply"),
            helper.make_node("ReduceSum", ["lore_masked"], ["lore_sum"], axes=[1], keepdims=0, name="lore_sum"),
            helper.make_node("ReduceSum", ["lore_mask_3d"], ["lore_count"], axes=[1], keepdims=0, name="lore_count"),
            helper.make_node("Div", ["lore_sum", "lore_count"], ["lore_pooled"], name="lore_mean_pool"),
        ]
    sys.exit(f"pool.py: pooling must be cls or mean, got {pooling!r}")


def main(pooling, src, dst):
    model = onnx.load(src)
    g = model.graph
    (tt,) = [i for i in g.input if i.name == "token_type_ids"]
    g.input.remove(tt)
    (hidden,) = [o for o in g.output if o.name == "last_hidden_state"]
    g.output.remove(hidden)
    consts, nodes = pool_nodes(pooling)
    g.initializer.extend([helper.make_tensor("lore_zero", TensorProto.INT64, [], [0])] + consts)
    g.node.insert(0, helper.make_node("Mul", ["input_ids", "lore_zero"], ["token_type_ids"], name="lore_token_types"))
    g.node.extend(nodes + [
        helper.make_node("ReduceL2", ["lore_pooled"], ["lore_norm"], axes=[1], keepdims=1, name="lore_norm"),
        helper.make_node("Div", ["lore_pooled", "lore_norm"], ["sentence_embedding"], name="lore_normalize"),
    ])
    g.output.append(helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", 384]))
    onnx.checker.check_model(model)
    onnx.save(model, dst)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: pool.py cls|mean IN.onnx OUT.onnx")
    main(*sys.argv[1:])
