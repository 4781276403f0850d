#!/usr/bin/env bash
# stop.sh — stops the Neo4j started by start.sh and waits for it to exit.
set -euo pipefail

state="${LORE_STATE_DIR:-/tmp/lore-services}/neo4j"
pidfile="$state/neo4j.pid"
if [[ ! -f "$pidfile" ]]; then
	echo "neo4j not running (no $pidfile)" >&2
	exit 0
fi
pid="$(cat "$pidfile")"
if kill -0 "$pid" 2>/dev/null; then
	kill "$pid"
	# SIGTERM runs the launcher's shutdown hook, which closes the database.
	for _ in $(seq 1 60); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "neo4j (pid $pid) did not stop in 60s; killing it" >&2
		kill -9 "$pid" 2>/dev/null || true
	fi
fi
rm -f "$pidfile"
echo "neo4j stopped" >&2
