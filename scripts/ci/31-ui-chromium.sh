#!/usr/bin/env bash
# 31-ui-chromium.sh — the web inspector in headless Chromium against a real
# `lore serve`, first open (loopback, no key exists), then with API keys on,
# the key typed into the page (ui/chromium_test.go: the graph draws the
# expected entities, clicking one shows its facts and source turns, a search
# shows its results with per-signal scores, the facts view shows history,
# rating a result shows the new relevance and the feedback view lists and
# resets the verdicts, the profile view shows explicit and inferred entries).
# Installs Chromium from Debian when it is missing.
#   LORE_UI_SCREENSHOTS=docs/ui scripts/ci/31-ui-chromium.sh   refreshes the screenshots in docs/ui/
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
chrome="$(command -v chromium || true)"
if [[ -z "$chrome" ]]; then
	apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
	chrome="$(command -v chromium)"
fi
"$chrome" --version 2>/dev/null | tail -n 1

work="$(mktemp -d /tmp/lore-ui-e2e.XXXXXX)"
server_pid=""
cleanup() {
	if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/lore" ./cmd/lore

# serve DATA_DIR: starts lore serve on a free loopback port, sets $url.
serve() {
	local port
	port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
	# The embedder is the environment's (LORE_MINILMQ_MODEL_DIR in CI).
	"$work/lore" serve --data-dir "$1" --addr "127.0.0.1:$port" --workers 1 >>"$work/serve.log" 2>&1 &
	server_pid=$!
	url="http://127.0.0.1:$port"
	for _ in $(seq 1 100); do
		curl -fsS "$url/healthz" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	echo "lore serve did not start"; tail -n 40 "$work/serve.log"; return 1
}
stop() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; }

if [[ -n "${LORE_UI_SCREENSHOTS:-}" ]]; then
	mkdir -p "$LORE_UI_SCREENSHOTS"
	LORE_UI_SCREENSHOTS="$(cd "$LORE_UI_SCREENSHOTS" && pwd)"
fi
status=0
# run KEY [SCREENSHOTS]: the test against $url.
run() {
	LORE_TEST_CHROMIUM="$chrome" LORE_UI_USER=alice LORE_UI_URL="$url" LORE_UI_KEY="$1" LORE_UI_SCREENSHOTS="${2:-}" \
		go test -count=1 -run '^TestInspectorInChromium$' -v ./ui/ >"$work/test.log" 2>&1 || status=$?
	cat "$work/test.log"
	# A skip would mean the environment did not reach the test.
	if ! grep -q -- '--- PASS: TestInspectorInChromium' "$work/test.log"; then
		echo "TestInspectorInChromium did not pass"
		status=1
	fi
}

echo "== an open loopback server (no key exists): the page needs none"
serve "$work/open"
run ""
stop

echo "== API keys on: the page sends the key typed into it"
key="$("$work/lore" keys create --data-dir "$work/keyed" --tenant default)"
serve "$work/keyed"
run "$key" "${LORE_UI_SCREENSHOTS:-}"
stop

if [[ "$status" -ne 0 ]]; then
	echo "--- lore serve log (tail)"
	tail -n 40 "$work/serve.log"
fi
exit "$status"
