#!/usr/bin/env python3
"""Train the rules extractor's learned fact scorer (extract/rules/scorer.go).

Input: the labelled facts and gold facts of the LoCoMo TUNE half, written by
extract/rules/factquality_test.go into /tmp (never into the repository):

  LORE_FQ_ALL=/tmp/fq2-tune.jsonl LORE_FQ_DATA=$PWD/../shared/bench/locomo/locomo_dev5.json \
  LORE_FQ_SPLIT=tune LORE_FQ_MODEL=$PWD/lore-data/models/all-MiniLM-L6-v2 \
  go test -timeout 0 -count=1 -run TestFactQualityQuick -v ./extract/rules
  LORE_FQ_GOLD=/tmp/fq-gold-tune.jsonl (same variables) go test ... -run TestFactQualityQuick ./extract/rules

Then (numpy, scikit-learn in a venv):

  python scripts/factscorer/train.py /tmp/fq2-tune.jsonl /tmp/fq-gold-tune.jsonl extract/rules/data/factscorer.json

Model: logistic regression over [MiniLM vector of the fact text, MiniLM vector
of its message's index key], trained on the statements (predicate
"statement") only; label = the fact matched a gold observation of a turn it
cites at cosine >= 0.6. C is chosen by leave-one-conversation-out
cross-validation; the threshold is the one that gives the highest
out-of-fold precision with out-of-fold coverage >= 0.58.
Only weights leave this script; no benchmark text.
"""
import datetime, json, sys
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

facts_path, gold_path, out_path = sys.argv[1:4]
F = [json.loads(l) for l in open(facts_path)]
G = [json.loads(l) for l in open(gold_path)]
ev = np.array([f["ev"] for f in F]); mv = np.array([f["mv"] for f in F]); gv = np.array([g["gv"] for g in G])
lab = np.array([f["match"] for f in F]); stmt = np.array([f["pred"] == "statement" and not f["ended"] for f in F])
groups = np.array([f["space"] for f in F])
gold_of = {}
for i, g in enumerate(G):
    for t in g["turns"]:
        gold_of.setdefault(g["space"] + "|" + t, []).append(i)
covers = [[j for j in gold_of.get(f["space"] + "|" + f["turn_id"], []) if ev[i] @ gv[j] >= 0.6] for i, f in enumerate(F)]

def quality(keep):
    c = set()
    for i in np.where(keep)[0]:
        c.update(covers[i])
    return len(c) / len(G), lab[keep].mean(), int(keep.sum())

X = np.hstack([ev, mv])
FLOOR = 0.58
best = None
for C in [0.1, 0.3, 1, 3]:
    p = np.zeros(len(F))
    for tr, te in GroupKFold(len(set(groups))).split(X, lab, groups):
        tr = tr[stmt[tr]]
        p[te] = LogisticRegression(C=C, max_iter=5000).fit(X[tr], lab[tr]).predict_proba(X[te])[:, 1]
    for t in np.round(np.arange(0.20, 0.80, 0.01), 2):
        cov, prec, n = quality(~stmt | (p >= t))
        if cov >= FLOOR and (best is None or prec > best[3]):
            best = (C, t, cov, prec, n)
    print("C=%g done, best so far C=%g t=%.2f cov=%.3f prec=%.3f n=%d" % ((C,) + best), file=sys.stderr)
C, t, cov, prec, n = best
base = quality(np.ones(len(F), bool))
m = LogisticRegression(C=C, max_iter=5000).fit(X[stmt], lab[stmt])
out = {
    "about": [
        "Learned fact scorer of the rules extractor (extract/rules/scorer.go). Weights only: no benchmark text.",
        "Trained %s by scripts/factscorer/train.py (scikit-learn LogisticRegression, C=%g, L2) on the LoCoMo TUNE half "
        "only (bench split: conv-30, conv-42, conv-43 of ../shared/bench/locomo/locomo_dev5.json)." % (datetime.date.today().isoformat(), C),
        "Examples: the %d statements (predicate statement, ending nothing) of rules/4 on that half; label: the fact "
        "matched a LoCoMo observation of a turn it cites at MiniLM cosine >= 0.6 (bench.ScoreFacts)." % int(stmt.sum()),
        "Features: all-MiniLM-L6-v2 vector of the fact text (weights 0..383), then of its message's index key "
        "retrieve.EpisodeKey(episode, previous turn, no facts) (weights 384..767).",
        "C and threshold chosen by leave-one-conversation-out cross-validation within the tune half: highest "
        "out-of-fold precision with out-of-fold coverage >= %.2f: threshold %.2f gives coverage %.3f, precision %.3f, "
        "%d facts (all facts kept: %.3f / %.3f / %d)." % (FLOOR, t, cov, prec, n, base[0], base[1], base[2]),
        "Command: see the docstring of scripts/factscorer/train.py.",
    ],
    "embedder": "all-MiniLM-L6-v2",
    "dim": 384,
    "features": ["fact", "message_key"],
    "weights": [round(float(w), 6) for w in m.coef_[0]],
    "bias": round(float(m.intercept_[0]), 6),
    "threshold": float(t),
}
with open(out_path, "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print(json.dumps(out["about"], indent=1))
