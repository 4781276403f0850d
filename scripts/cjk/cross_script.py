#!/usr/bin/env python3
"""Write a copy of a fixtures/zh question set whose queries are in the other
script: a Traditional user's questions in Simplified, a Simplified user's in
Taiwan Traditional. Memories, expected and stale strings are left as written,
so `lore bench facts` on the copy measures cross-script search.

Needs the PyPI package opencc-python-reimplemented (Apache-2.0) in a venv:
  python3 -m venv /tmp/cjk-venv && /tmp/cjk-venv/bin/pip install opencc-python-reimplemented==0.1.7
  /tmp/cjk-venv/bin/python scripts/cjk/cross_script.py fixtures/zh/tune.json > /tmp/cross-tune.json
"""
import json
import sys

import opencc

CONVERT = {"traditional": opencc.OpenCC("t2s"), "simplified": opencc.OpenCC("s2tw")}


def main(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    changed = 0
    for user in data["users"]:
        conv = CONVERT[user["script"]]
        for q in user["questions"]:
            new = conv.convert(q["query"])
            changed += new != q["query"]
            q["query"] = new
    data["description"] = "Cross-script copy of %s (queries converted by scripts/cjk/cross_script.py)." % path
    json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
    print("%d of %d queries changed script" % (changed, sum(len(u["questions"]) for u in data["users"])), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
