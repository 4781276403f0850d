#!/usr/bin/env python3
"""Re-rank `lore bench feedback --dump FILE` output offline (issue 14).

For each half-B question the dump holds its all-off top 50 (ids, scores, source
turns) and, per conversation, the success rows the half-A verdicts left (query
hash, memory, helpful and unhelpful counts). This script re-sorts each half-B
list by score x (1 + lift) under a rule and prints turn any@10, frac@10 and
nDCG@10 against the all-off order, computed as bench/metrics.go does.

Rules: oracles that know which half-A question shares a gold turn with the
half-B question (the ceiling of carrying verdicts across questions), and rules a
ranking signal could apply (helpful memories, unhelpful ones, turns shared with
a helpful memory, word overlap between questions).

    python3 scripts/feedback/ceiling.py DUMP.jsonl ../shared/bench/locomo/locomo_dev5.json
"""
import collections
import json
import math
import re
import sys


def load(path):
    qs = collections.defaultdict(lambda: {"A": [], "B": []})
    rows = {}
    for line in open(path):
        d = json.loads(line)
        if d["type"] == "question":
            qs[d["conv"]][d["half"]].append(d)
        else:
            rows[d["conv"]] = d["rows"] or []
    return qs, rows


def metrics(results, gold, k=10):
    g, found, dcg = set(gold), set(), 0.0
    for i, r in enumerate(results[:k]):
        gain = 0
        for t in r["turns"]:
            if t in g and t not in found:
                found.add(t)
                gain = 1  # a result counts once, and only for gold it adds
        dcg += gain / math.log2(i + 2)
    idcg = sum(1 / math.log2(i + 2) for i in range(min(k, len(g))))
    return (1.0 if found else 0.0, len(found) / max(len(g), 1), dcg / idcg if idcg else 0.0)


STOP = set("""a an the and or but if of at by for with about to from in on off over under again is are was
were be been do does did what when where who whom which why how has have had it its this that these those i you he
she they we his her their our my your as into than then so not no can could would should will""".split())


def words(text):
    return {w[:6] for w in re.findall(r"[a-z0-9']+", text.lower()) if w not in STOP}


def jaccard(a, b):
    return len(a & b) / len(a | b) if a and b else 0.0


def main():
    qs, rows = load(sys.argv[1])
    text = {}
    for s in json.load(open(sys.argv[2])):
        for i, q in enumerate(s["qa"]):
            text["%s/q%d" % (s["sample_id"], i)] = q["question"]

    convs = {}
    for conv, c in qs.items():
        helpful = collections.defaultdict(set)  # half-A query hash -> memories judged helpful
        hq, uq = collections.Counter(), collections.Counter()  # distinct queries per memory
        for r in rows.get(conv, []):
            if r["helpful"] > 0:
                helpful[r["query_hash"]].add(r["memory_id"])
                hq[r["memory_id"]] += 1
            elif r["unhelpful"] > 0:
                uq[r["memory_id"]] += 1
        turns = {r["id"]: r["turns"] for q in c["A"] + c["B"] for r in q["results"]}
        helpful_turns = {t for m in hq for t in turns.get(m, [])}
        convs[conv] = dict(helpful=helpful, hq=hq, uq=uq, turns=turns, helpful_turns=helpful_turns)

    def run(label, lift_of):
        tot, base, n = [0.0] * 3, [0.0] * 3, 0
        for conv, c in qs.items():
            st = convs[conv]
            for q in c["B"]:
                lift = lift_of(q, c["A"], st)
                order = sorted(q["results"], key=lambda r: -r["score"] * (1 + lift.get(r["id"], 0)))
                for i, (m, b) in enumerate(zip(metrics(order, q["gold"]), metrics(q["results"], q["gold"]))):
                    tot[i] += m
                    base[i] += b
                n += 1
        print("%-58s any@10 %+.3f  frac@10 %+.3f  nDCG@10 %+.3f" % (label, *((t - b) / n for t, b in zip(tot, base))))
        return base, n

    base, n = run("all off (the dump's order)", lambda q, A, st: {})
    print("  (%d half-B questions; all off: any@10 %.3f frac@10 %.3f nDCG@10 %.3f)" % (n, *(b / n for b in base)))

    def oracle_shared(w):
        def f(q, A, st):
            out = {}
            for a in A:
                shared = set(q["gold"]) & set(a["gold"])
                for m in st["helpful"][a["hash"]]:
                    if shared & set(st["turns"].get(m, [])):
                        out[m] = w
            return out
        return f

    for w in (0.5, 1, 3, 100):
        run("oracle: helpful for an A question sharing the turn, x%g" % (1 + w), oracle_shared(w))
    for w in (0.1, 0.5):
        run("helpful memory x%g" % (1 + w), lambda q, A, st, w=w: {m: w for m in st["hq"]})
    for k in (1, 3, 8):
        run("unhelpful for >= %d questions, never helpful, x0.8" % k,
            lambda q, A, st, k=k: {m: -0.2 for m, u in st["uq"].items() if u >= k and not st["hq"][m]})
    run("shares a turn with a helpful memory x1.1",
        lambda q, A, st: {r["id"]: 0.1 for r in q["results"] if set(r["turns"]) & st["helpful_turns"]})

    def overlap(tau, w):
        def f(q, A, st):
            out = {}
            for a in A:
                s = jaccard(words(text[q["id"]]), words(text[a["id"]]))
                if s >= tau:
                    for m in st["helpful"][a["hash"]]:
                        out[m] = max(out.get(m, 0), w * s)
            return out
        return f

    for tau in (0.3, 0.5):
        run("helpful for an A question with word overlap >= %g, x(1+0.5*overlap)" % tau, overlap(tau, 0.5))


if __name__ == "__main__":
    main()
