#!/usr/bin/env bash
# stop.sh stops the Weaviate server that start.sh started, by the pid in its
# pid file: SIGTERM, then SIGKILL if it has not exited after a grace period.
# Pass --purge to delete its data directory as well.
set -euo pipefail

STATE_DIR="${LORE_STATE_DIR:-/tmp/lore-services}/weaviate"
PID_FILE="$STATE_DIR/weaviate.pid"
GRACE="${WEAVIATE_STOP_TIMEOUT:-30}"

if [[ -f "$PID_FILE" ]]; then
	pid="$(cat "$PID_FILE")"
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid"
		deadline=$((SECONDS + GRACE))
		while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
			sleep 0.2
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "stop.sh: weaviate (pid $pid) ignored SIGTERM for ${GRACE}s; killing it" >&2
			kill -KILL "$pid" 2>/dev/null || true
		fi
		echo "weaviate stopped (pid $pid)"
	else
		echo "weaviate was not running (stale pid $pid)"
	fi
	rm -f "$PID_FILE" "$STATE_DIR/url"
else
	echo "weaviate is not running (no $PID_FILE)"
fi

if [[ "${1:-}" == "--purge" ]]; then
	rm -rf "$STATE_DIR/data"
	echo "removed $STATE_DIR/data"
fi
