#!/usr/bin/env bash
# The mem0 SDK suite (tests/mem0): the real mem0ai package, at the version
# pinned in tests/mem0/requirements.txt, against a real `lore serve`.
# Builds Lore, starts it on a free loopback port with a fresh data directory
# and two API keys, runs pytest, and stops the server.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="${LORE_CACHE_DIR:-$HOME/.cache/lore}"
venv="$cache/venv-mem0"
work="$(mktemp -d /tmp/lore-mem0.XXXXXX)"
pid=""
cleanup() {
	if [[ -n "$pid" ]]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

if [[ ! -x "$venv/bin/python" ]]; then
	python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check -r "$root/tests/mem0/requirements.txt"

(cd "$root" && go build -o "$work/lore" ./cmd/lore)
port="$("$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
data="$work/data"
# The real model when CI provides it; BM25 and the graph otherwise.
embed=(--embedder none)
if [[ -n "${LORE_MODEL_DIR:-}" && -d "${LORE_MODEL_DIR}" ]]; then
	embed=(--embedder minilm --model-dir "$LORE_MODEL_DIR")
fi
key="$("$work/lore" keys create --data-dir "$data" "${embed[@]}" --tenant mem0-ci)"
reset_key="$("$work/lore" keys create --data-dir "$data" "${embed[@]}" --tenant mem0-ci-reset)"

"$work/lore" serve --data-dir "$data" "${embed[@]}" --addr "127.0.0.1:$port" --log-format json >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
	if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
		break
	fi
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "lore serve exited:" >&2
		cat "$work/serve.log" >&2
		exit 1
	fi
	sleep 0.2
done

status=0
LORE_MEM0_URL="http://127.0.0.1:$port" LORE_MEM0_KEY="$key" LORE_MEM0_RESET_KEY="$reset_key" \
	MEM0_TELEMETRY=False MEM0_DIR="$work/mem0" \
	"$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/tests/mem0" || status=$?
if [[ $status -ne 0 ]]; then
	echo "--- lore serve log (last 50 lines)" >&2
	tail -n 50 "$work/serve.log" >&2
fi
exit "$status"
