#!/usr/bin/env python3
"""Compute reference embeddings and token ids with sentence-transformers.

Writes fixtures/embeddings/reference.json, which embed/bert's tests compare
the Go tokenizer and the ONNX model against. Needs sentence-transformers and
PyTorch, which only this script does: CI reads the committed fixture.

Usage: reference.py MODEL_DIR OUT.json
(MODEL_DIR holds the sentence-transformers files: config.json,
model.safetensors, tokenizer.json, modules.json, 1_Pooling/, ...)
"""

import json
import sys

# Fifty sentences chosen to exercise the tokenizer and the model: short and
# long (past 128 and past 256 word pieces, which truncates), punctuation,
# digits, accents, CJK, other scripts, emoji and odd white space.
LONG_128 = (
    "During the spring of 2023 Caroline moved from a small apartment in Lyon to a house near the sea, "
    "where she started a vegetable garden, adopted two rescue dogs named Pepper and Biscuit, and began "
    "volunteering every Saturday morning at the local animal shelter; she says the change of pace helped "
    "her finish the novel she had been writing for six years, a story about three sisters who inherit a "
    "vineyard, and she hopes to send the manuscript to publishers before the end of the summer, once her "
    "friend Melanie has read it and suggested the last round of edits."
)
LONG_256 = " ".join([LONG_128] * 3)
SENTENCES = [
    "Hello world",
    "I live in Paris.",
    "My sister's name is Anna and she works at Google.",
    "What did I eat for breakfast last Tuesday?",
    "The quick brown fox jumps over the lazy dog.",
    "Melanie painted a sunrise over the lake in 2022.",
    "Caroline went to the LGBTQ support group on 7 May 2023.",
    "I'm allergic to peanuts, shellfish and penicillin!!!",
    "Remind me: the meeting moved from 3pm to 4:30pm (EST).",
    "Price: $1,299.99 — was €1.499,00; save 13%.",
    "Call +1 (555) 010-9999 or e-mail jane.doe@example.com",
    "https://example.org/path?q=memory&lang=en#section-2",
    "user_id=42, agent_id=\"travel-bot\", run_id='r-7'",
    "3.14159 2.71828 1.41421 0 -17 1e-9 0x1F 1_000_000",
    "Café crème brûlée à la française, s'il vous plaît.",
    "Ångström, Øresund, Straße, naïve, coöperate, façade",
    "El niño comió jalapeños en Málaga el año pasado.",
    "Zoë Saldaña and Beyoncé performed at the Glastonbury festival.",
    "İstanbul'da yaşıyorum ve Türkçe öğreniyorum.",
    "Ich wohne seit drei Jahren in München und arbeite bei Siemens.",
    "Москва — столица России.",
    "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.",
    "我住在北京，我喜欢吃饺子。",
    "東京タワーは東京都港区にあります。",
    "서울은 한국의 수도입니다.",
    "مرحبا، كيف حالك اليوم؟",
    "שלום עולם",
    "नमस्ते, मेरा नाम राहुल है।",
    "I love pizza 🍕 and tacos 🌮!",
    "🎉🎉🎉 congrats on the new job!!! 🚀",
    "Family: 👨‍👩‍👧‍👦 trip to the beach ☀️ next week",
    "   leading and trailing spaces   ",
    "tabs\tand\nnewlines\r\nmixed in",
    "non\u00a0breaking\u2003em\u2009thin spaces",
    "zero\u200bwidth and soft\u00adhyphen characters",
    "ALL CAPS SHOUTING ABOUT THE WEEKEND",
    "camelCaseIdentifiers and snake_case_names and kebab-case-words",
    "antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis",
    "a",
    "?",
    "...",
    "I don't think that's what they're going to do, isn't it?",
    "The user prefers vegetarian restaurants and dislikes spicy food.",
    "Next Friday I'm flying to Tokyo for a two-week conference.",
    "Two years ago, John adopted a cat named Whiskers.",
    "Q3 revenue grew 12.5% YoY to $4.2B, beating estimates by 3¢ per share.",
    "C++ and C# differ; so do Go's goroutines vs. Rust's async/await.",
    LONG_128,
    LONG_256,
    "Ｆｕｌｌｗｉｄｔｈ ｌｅｔｔｅｒｓ ａｎｄ ＡＢＣ １２３",
]

# Inputs that only the tokenizer test uses: edge cases of normalization and
# WordPiece that would add little to the embedding test.
TOKENIZER_ONLY = [
    "",
    " ",
    "x" * 101,
    "x" * 100,
    "control\x00\x07\x1bchars\ufffd",
    "İİ ǅ ﬁ ß Σ ς",
    "𠀀𠀁 CJK extension B",
    "à̀ combining stacked",
    "½ ² ⅷ ① units℃",
    "<html><body>tag soup</body></html>",
    "~`!@#$%^&*()_+-={}[]|\\:;\"'<>,.?/",
    "unaffable unbelievable hypernormalization",
    "love 🥰 it, melting 🫠 face, goose 🪿 here",  # emoji of Unicode 11, 14 and 15
    "\U000E0001 tag \U0010FFFD private use",
    "x\u0378y unassigned code point",
    "ab\u2028cd\x1cef line separator and file separator",
    "Ǆ ǅ ẞ ﬃ case and ligatures",
]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: reference.py MODEL_DIR OUT.json")
    model_dir, out = sys.argv[1], sys.argv[2]
    assert len(SENTENCES) == 50, len(SENTENCES)

    import sentence_transformers
    import torch
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(model_dir, device="cpu")
    tok = model.tokenizer
    max_len = model.max_seq_length

    def ids(text):
        # The same call sentence-transformers makes, one text at a time.
        return tok(text.strip(), truncation=True, max_length=max_len)["input_ids"]

    with torch.no_grad():
        vectors = model.encode(SENTENCES, batch_size=16, convert_to_numpy=True, normalize_embeddings=False)
    doc = {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "generator": "scripts/model/reference.py",
        "sentence_transformers": sentence_transformers.__version__,
        "torch": torch.__version__,
        "max_seq_length": max_len,
        "sentences": [
            {"text": s, "ids": ids(s), "vector": [round(float(x), 7) for x in v]}
            for s, v in zip(SENTENCES, vectors)
        ],
        "tokenizer_cases": [{"text": s, "ids": ids(s)} for s in TOKENIZER_ONLY],
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    lens = [len(e["ids"]) for e in doc["sentences"]]
    print(f"wrote {out}: {len(SENTENCES)} sentences, token lengths {min(lens)}..{max(lens)}")


if __name__ == "__main__":
    main()
