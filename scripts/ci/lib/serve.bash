# Sourced by the suites here that need a real `lore serve` (not run on its
# own: test-all.sh runs scripts/ci/*.sh only). After `lore_serve TENANT...`:
# LORE_URL is the server's URL, LORE_KEYS[i] an API key of the i-th tenant,
# LORE_WORK a scratch directory; an EXIT trap stops the server and removes
# the directory.
lore_serve() {
	local root
	root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
	LORE_WORK="$(mktemp -d /tmp/lore-ci.XXXXXX)"
	LORE_PID=""
	trap 'if [[ -n "$LORE_PID" ]]; then kill "$LORE_PID" 2>/dev/null || true; wait "$LORE_PID" 2>/dev/null || true; fi; rm -rf "$LORE_WORK"' EXIT
	(cd "$root" && go build -o "$LORE_WORK/lore" ./cmd/lore)
	local port data
	port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
	data="$LORE_WORK/data"
	# The real model when CI provides it; BM25 and the graph otherwise.
	local embed=(--embedder none)
	if [[ -n "${LORE_MODEL_DIR:-}" && -d "${LORE_MODEL_DIR}" ]]; then
		embed=(--embedder minilm --model-dir "$LORE_MODEL_DIR")
	fi
	LORE_KEYS=()
	local t
	for t in "$@"; do
		LORE_KEYS+=("$("$LORE_WORK/lore" keys create --data-dir "$data" "${embed[@]}" --tenant "$t")")
	done
	"$LORE_WORK/lore" serve --data-dir "$data" "${embed[@]}" --addr "127.0.0.1:$port" --log-format json >"$LORE_WORK/serve.log" 2>&1 &
	LORE_PID=$!
	LORE_URL="http://127.0.0.1:$port"
	local _
	for _ in $(seq 1 150); do
		if curl -fsS "$LORE_URL/healthz" >/dev/null 2>&1; then
			return 0
		fi
		if ! kill -0 "$LORE_PID" 2>/dev/null; then
			break
		fi
		sleep 0.2
	done
	echo "lore serve did not start:" >&2
	cat "$LORE_WORK/serve.log" >&2
	return 1
}

# lore_serve_log prints the end of the server's log (after a failure).
lore_serve_log() {
	echo "--- lore serve log (last 50 lines)" >&2
	tail -n 50 "$LORE_WORK/serve.log" >&2
}
