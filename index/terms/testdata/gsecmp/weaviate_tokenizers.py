"""BM25 recall on fixtures/zh with Weaviate's own Chinese tokenizations (gse,
trigram) beside Lore's bigrams (whitespace over terms.Joined). Needs a Weaviate
started with ENABLE_TOKENIZER_GSE=true scripts/weaviate/start.sh, and the gse
comparison binary built here: go build -o /tmp/gsecmp . ; then
python3 weaviate_tokenizers.py http://127.0.0.1:PORT /tmp/gsecmp
It creates and drops the classes ZhGse, ZhTrigram and ZhBigram."""
import json, subprocess, urllib.request, sys
W, BIN = sys.argv[1], sys.argv[2]
def call(method, path, body=None):
    req = urllib.request.Request(W + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json"})
    try:
        body = urllib.request.urlopen(req).read()
        return json.loads(body) if body.strip() else {}
    except urllib.error.HTTPError as e:
        raise SystemExit(f"{method} {path}: {e.code} {e.read()[:300]}")
users, texts = [], []
for half in ("tune", "validate"):
    d = json.load(open(f"../../../../fixtures/zh/{half}.json"))
    users += d["users"]
for u in users:
    for s in u["sessions"]:
        for m in s["messages"]:
            texts.append(m["content"])
joined = subprocess.run([BIN, "-join"], input="\n".join(json.dumps(t) for t in texts), capture_output=True, text=True).stdout.split("\n")
J = {t: json.loads(j) for t, j in zip(texts, joined)}
qs = [q["query"] for u in users for q in u["questions"]]
qj = dict(zip(qs, [json.loads(x) for x in subprocess.run([BIN, "-join"], input="\n".join(json.dumps(q) for q in qs), capture_output=True, text=True).stdout.split("\n") if x]))
configs = {"ZhGse": ("gse", "text"), "ZhTrigram": ("trigram", "text"), "ZhBigram": ("whitespace", "terms")}
for cls, (tok, src) in configs.items():
    try: call("DELETE", f"/v1/schema/{cls}")
    except SystemExit: pass
    call("POST", "/v1/schema", {"class": cls, "vectorizer": "none",
        "invertedIndexConfig": {"bm25": {"k1": 1.2, "b": 0.75}, "stopwords": {"preset": "none"}},
        "properties": [{"name": "uid", "dataType": ["text"], "tokenization": "field"},
                       {"name": "body", "dataType": ["text"], "tokenization": tok}, {"name": "raw", "dataType": ["text"], "tokenization": "field", "indexSearchable": False}]})
    objs = []
    for u in users:
        for s in u["sessions"]:
            for m in s["messages"]:
                objs.append({"class": cls, "properties": {"uid": u["id"], "body": J[m["content"]] if src == "terms" else m["content"], "raw": m["content"]}})
    call("POST", "/v1/batch/objects", {"objects": objs})
print("| Weaviate tokenization | recall@1 | recall@3 | recall@5 |")
print("|---|---:|---:|---:|")
for cls, (tok, src) in configs.items():
    hits = [0, 0, 0]; n = 0
    for u in users:
        for q in u["questions"]:
            n += 1
            text = qj[q["query"]] if src == "terms" else q["query"]
            gql = '{Get{%s(bm25:{query:%s,properties:["body"]},where:{path:["uid"],operator:Equal,valueText:%s},limit:5){raw}}}' % (cls, json.dumps(text, ensure_ascii=False), json.dumps(u["id"]))
            r = call("POST", "/v1/graphql", {"query": gql})
            res = [o["raw"] for o in (r.get("data", {}).get("Get", {}).get(cls) or [])]
            if r.get("errors"): raise SystemExit(str(r["errors"])[:300])
            for i, k in enumerate((1, 3, 5)):
                if any(any(e in t for e in q["expected"]) for t in res[:k]): hits[i] += 1
    label = {"ZhGse": "gse (ENABLE_TOKENIZER_GSE=true), raw text", "ZhTrigram": "trigram, raw text", "ZhBigram": "whitespace over terms.Joined (Lore's bigrams, adopted)"}[cls]
    print(f"| {label} | {hits[0]/n:.3f} | {hits[1]/n:.3f} | {hits[2]/n:.3f} |")
for cls in configs: call("DELETE", f"/v1/schema/{cls}")
