#!/usr/bin/env bash
# start.sh [PORT] — starts a real Neo4j 5.26 (neo4j-harness, in one JVM) with
# Bolt on 127.0.0.1:PORT (default 7687), authentication disabled, for Lore's
# tests and CI. Builds the launcher with Maven on first use. State (pid file,
# log, data) lives in ${LORE_STATE_DIR:-/tmp/lore-services}/neo4j.
# Prints the line to export: LORE_TEST_NEO4J_URL=neo4j://127.0.0.1:PORT
set -euo pipefail

port="${1:-7687}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
state="${LORE_STATE_DIR:-/tmp/lore-services}/neo4j"
pidfile="$state/neo4j.pid"
log="$state/neo4j.log"
wait_seconds="${LORE_NEO4J_WAIT:-180}"
heap="${LORE_NEO4J_HEAP:-1g}"
mkdir -p "$state"

if [[ -f "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
	echo "neo4j already running (pid $(cat "$pidfile"))" >&2
	echo "LORE_TEST_NEO4J_URL=neo4j://127.0.0.1:$(cat "$state/port" 2>/dev/null || echo "$port")"
	exit 0
fi

for tool in java mvn; do
	if ! command -v "$tool" >/dev/null; then
		echo "start.sh: $tool not found; install a JDK 17+ and Maven (apt-get install -y openjdk-17-jdk-headless maven)" >&2
		exit 1
	fi
done

jar="$here/target/lore-neo4j-server-1.0.0.jar"
cp_file="$here/target/classpath.txt"
if [[ ! -f "$jar" || ! -f "$cp_file" || "$here/pom.xml" -nt "$jar" || "$here/src/main/java/dev/lore/neo4j/Server.java" -nt "$jar" ]]; then
	echo "building the Neo4j launcher (mvn package)..." >&2
	if ! (cd "$here" && mvn -q -B package -DskipTests) >"$state/build.log" 2>&1; then
		echo "start.sh: maven build failed; last lines of $state/build.log:" >&2
		tail -n 30 "$state/build.log" >&2
		exit 1
	fi
fi

# A fresh data directory per start: the server is for tests.
data="$state/data"
rm -rf "$data"
mkdir -p "$data"

: >"$log"
# Heap and page cache stay modest: several services share a 2-core machine.
nohup java -Xms256m "-Xmx$heap" -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError \
	-cp "$jar:$(cat "$cp_file")" dev.lore.neo4j.Server "$port" "$data" >>"$log" 2>&1 &
pid=$!
echo "$pid" >"$pidfile"
echo "$port" >"$state/port"

deadline=$((SECONDS + wait_seconds))
until grep -q '^lore-neo4j ready' "$log"; do
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "start.sh: neo4j exited before it was ready; last lines of $log:" >&2
		tail -n 40 "$log" >&2
		rm -f "$pidfile"
		exit 1
	fi
	if ((SECONDS >= deadline)); then
		echo "start.sh: neo4j not ready after ${wait_seconds}s; last lines of $log:" >&2
		tail -n 40 "$log" >&2
		kill "$pid" 2>/dev/null || true
		rm -f "$pidfile"
		exit 1
	fi
	sleep 1
done

# The ready line is printed once the database is started; check that Bolt
# really accepts connections before telling anyone to use it.
until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
	if ((SECONDS >= deadline)); then
		echo "start.sh: bolt port $port not answering after ${wait_seconds}s; last lines of $log:" >&2
		tail -n 40 "$log" >&2
		kill "$pid" 2>/dev/null || true
		rm -f "$pidfile"
		exit 1
	fi
	sleep 1
done

echo "neo4j ready (pid $pid, log $log)" >&2
echo "LORE_TEST_NEO4J_URL=neo4j://127.0.0.1:$port"
