#!/usr/bin/env bash
# 60-zh.sh: the Chinese question set (issue 18) against its targets. Runs
# `lore bench facts` on fixtures/zh/validate.json with the default embedder
# (int8 MiniLM from LORE_MINILMQ_MODEL_DIR) on the embedded store and on Weaviate
# (LORE_TEST_WEAVIATE_URL, exported by scripts/test-all.sh), and fails when
# pass@1 < 0.85 or pass@3 < 0.95. About a minute on 2 cores.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
: "${LORE_MINILMQ_MODEL_DIR:?LORE_MINILMQ_MODEL_DIR must point at the int8 MiniLM model (scripts/test-all.sh exports it)}"
work="$(mktemp -d /tmp/lore-ci-zh.XXXXXX)"
trap 'rm -rf "$work"' EXIT

go build -o "$work/lore" ./cmd/lore

check() { # check NAME REPORT.json
	python3 - "$1" "$2" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
o = json.load(open(path))["default"]["overall"]
p1, p3 = o["pass@1"], o["pass@3"]
print(f"{name}: pass@1 {p1:.3f}, pass@3 {p3:.3f} over {o['questions']} questions")
if p1 < 0.85 or p3 < 0.95:
    sys.exit(f"{name}: below the targets pass@1 >= 0.85, pass@3 >= 0.95")
PY
}

"$work/lore" bench facts --data fixtures/zh/validate.json --minilm-q-model-dir "$LORE_MINILMQ_MODEL_DIR" \
	--data-dir "$work/embedded" --out "$work/embedded.json" >/dev/null
check "fixtures/zh/validate.json, embedded" "$work/embedded.json"

if [[ -n "${LORE_TEST_WEAVIATE_URL:-}" ]]; then
	"$work/lore" bench facts --data fixtures/zh/validate.json --minilm-q-model-dir "$LORE_MINILMQ_MODEL_DIR" \
		--index "$LORE_TEST_WEAVIATE_URL" --data-dir "$work/weaviate" --out "$work/weaviate.json" >/dev/null
	check "fixtures/zh/validate.json, Weaviate" "$work/weaviate.json"
elif [[ "${CI:-}" == "true" ]]; then
	echo "60-zh.sh: LORE_TEST_WEAVIATE_URL is not set (scripts/test-all.sh starts Weaviate)" >&2
	exit 1
fi
