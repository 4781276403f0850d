#!/usr/bin/env bash
# 30-mcp-python.sh — Lore's MCP server end to end with the Python `mcp` SDK
# (pinned below): streamable HTTP at /mcp of a real `lore serve` with an API
# key, and stdio of a real `lore mcp`. See scripts/ci/mcp/e2e.py.
set -euo pipefail

MCP_VERSION=2.3.0   # the Python mcp package tested against; README names it

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root="$(pwd)"
cache="${LORE_CACHE_DIR:-$HOME/.cache/lore}"
work="$(mktemp -d /tmp/lore-mcp-e2e.XXXXXX)"
server_pid=""
cleanup() {
	if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

venv="$cache/venv-mcp-$MCP_VERSION"
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c "import mcp" 2>/dev/null; then
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q "mcp==$MCP_VERSION"
fi

go build -o "$work/lore" ./cmd/lore
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
# The embedder is the environment's (LORE_MINILMQ_MODEL_DIR in CI: int8 MiniLM); without
# the model, lore starts without one and says so.
# A key exists before the server starts, so auth is on from the first request.
key="$("$work/lore" keys create --data-dir "$work/data" --tenant acme --user dana)"
"$work/lore" serve --data-dir "$work/data" --addr "127.0.0.1:$port" --workers 1 >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
	curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
	sleep 0.2
done

status=0
LORE_BIN="$work/lore" LORE_URL="http://127.0.0.1:$port" LORE_KEY="$key" LORE_PINNED_USER=dana \
	LORE_STDIO_DATA="$work/stdio-data" "$venv/bin/python" scripts/ci/mcp/e2e.py || status=$?
if [[ "$status" -ne 0 ]]; then
	echo "--- lore serve log (tail)"
	tail -n 40 "$work/serve.log"
fi
exit "$status"
