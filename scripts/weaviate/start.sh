#!/usr/bin/env bash
# start.sh [PORT] runs the Weaviate server built by install.sh as a single
# node on loopback, in the background, and prints the variable Lore's tests
# read:
#
#   LORE_TEST_WEAVIATE_URL=http://127.0.0.1:PORT
#
# Its pid file, log and data live under ${LORE_STATE_DIR:-/tmp/lore-services}/weaviate.
# Every other port it needs (gRPC, gossip, data, Raft) is a free loopback port.
# Without PORT it picks a free one. stop.sh stops it.
set -euo pipefail

CACHE_DIR="${LORE_CACHE_DIR:-$HOME/.cache/lore}"
BIN="${WEAVIATE_BIN:-$CACHE_DIR/bin/weaviate-server}"
STATE_DIR="${LORE_STATE_DIR:-/tmp/lore-services}/weaviate"
PID_FILE="$STATE_DIR/weaviate.pid"
LOG_FILE="$STATE_DIR/weaviate.log"
URL_FILE="$STATE_DIR/url"
DATA_DIR="$STATE_DIR/data"
READY_TIMEOUT="${WEAVIATE_READY_TIMEOUT:-120}"

if [[ ! -x "$BIN" ]]; then
	echo "start.sh: $BIN not found; run scripts/weaviate/install.sh first" >&2
	exit 1
fi

mkdir -p "$STATE_DIR" "$DATA_DIR"

if [[ -f "$PID_FILE" ]] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; then
	if [[ -f "$URL_FILE" ]] && curl -fsS --max-time 2 "$(cat "$URL_FILE")/v1/.well-known/ready" >/dev/null 2>&1; then
		echo "weaviate already running (pid $(cat "$PID_FILE"))" >&2
		echo "LORE_TEST_WEAVIATE_URL=$(cat "$URL_FILE")"
		exit 0
	fi
	echo "start.sh: pid $(cat "$PID_FILE") is running but not ready; run stop.sh first" >&2
	exit 1
fi

# port_in_use reports whether something accepts connections on the loopback port.
port_in_use() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

taken=()
# free_port prints a loopback port that nothing listens on and that this
# script has not handed out yet.
free_port() {
	local p i
	for ((i = 0; i < 200; i++)); do
		p=$((20000 + RANDOM % 40000))
		if [[ " ${taken[*]} " == *" $p "* ]] || port_in_use "$p"; then
			continue
		fi
		taken+=("$p")
		echo "$p"
		return 0
	done
	echo "start.sh: no free port found" >&2
	return 1
}

if [[ $# -ge 1 ]]; then
	HTTP_PORT="$1"
	if port_in_use "$HTTP_PORT"; then
		echo "start.sh: port $HTTP_PORT is already in use" >&2
		exit 1
	fi
	taken+=("$HTTP_PORT")
else
	HTTP_PORT="$(free_port)"
fi
GRPC_PORT="$(free_port)"
GOSSIP_PORT="$(free_port)"
DATA_PORT="$(free_port)"
RAFT_PORT="$(free_port)"
RAFT_RPC_PORT="$(free_port)"

URL="http://127.0.0.1:$HTTP_PORT"

# The server inherits none of the caller's Weaviate settings: env -i keeps the
# run reproducible. Profiling is disabled because it would listen on :6060 on
# every interface. USE_INVERTED_SEARCHABLE=false makes new collections use the
# classic BM25 index: Weaviate 1.35.2's BlockMax WAND index prunes matches of
# recently written, not yet flushed terms from limited BM25 queries (fixed
# upstream after 1.35.2, weaviate/weaviate#11780); see docs/weaviate.md.
# ENABLE_TOKENIZER_GSE=true (from the caller) loads Weaviate's Chinese
# dictionary tokenizer; Lore does not use it (index/terms/README.md), it is
# there to measure it.
env -i \
	PATH="$PATH" HOME="$HOME" \
	PERSISTENCE_DATA_PATH="$DATA_DIR" \
	AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true \
	DEFAULT_VECTORIZER_MODULE=none \
	ENABLE_MODULES= \
	CLUSTER_HOSTNAME=node1 \
	CLUSTER_ADVERTISE_ADDR=127.0.0.1 \
	CLUSTER_BIND_ADDR=127.0.0.1 \
	CLUSTER_GOSSIP_BIND_PORT="$GOSSIP_PORT" \
	CLUSTER_DATA_BIND_PORT="$DATA_PORT" \
	RAFT_PORT="$RAFT_PORT" \
	RAFT_INTERNAL_RPC_PORT="$RAFT_RPC_PORT" \
	RAFT_BOOTSTRAP_EXPECT=1 \
	RAFT_JOIN=node1 \
	GRPC_PORT="$GRPC_PORT" \
	DISABLE_TELEMETRY=true \
	GO_PROFILING_DISABLE=true \
	USE_INVERTED_SEARCHABLE=false \
	ENABLE_TOKENIZER_GSE="${ENABLE_TOKENIZER_GSE:-false}" \
	QUERY_DEFAULTS_LIMIT=25 \
	LOG_LEVEL="${WEAVIATE_LOG_LEVEL:-warning}" \
	nohup "$BIN" --host 127.0.0.1 --port "$HTTP_PORT" --scheme http >"$LOG_FILE" 2>&1 &
pid=$!
echo "$pid" >"$PID_FILE"

deadline=$((SECONDS + READY_TIMEOUT))
until curl -fsS --max-time 2 "$URL/v1/.well-known/ready" >/dev/null 2>&1; do
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "start.sh: weaviate exited during start-up; last lines of $LOG_FILE:" >&2
		tail -n 20 "$LOG_FILE" >&2
		rm -f "$PID_FILE"
		exit 1
	fi
	if ((SECONDS >= deadline)); then
		echo "start.sh: weaviate not ready after ${READY_TIMEOUT}s; see $LOG_FILE (still running as pid $pid, stop it with stop.sh)" >&2
		exit 1
	fi
	sleep 0.5
done

echo "$URL" >"$URL_FILE"
echo "weaviate ready (pid $pid, grpc $GRPC_PORT, log $LOG_FILE)" >&2
echo "LORE_TEST_WEAVIATE_URL=$URL"
