#!/usr/bin/env bash
# test-all.sh — runs every Lore test against real services. It installs and
# starts what the tests need — the built-in embedding model, a real Neo4j 5.26
# (neo4j-harness) and a real Weaviate 1.35.2 — all on loopback, runs the
# conformance suites verbosely (so the log shows which backend passed what),
# then the rest of the tests, and stops the services on exit.
#
# Needs: Go, Java 17 + Maven, Python 3 with pip, npm. Downloads go through the
# package registries' own caches under $HOME, so a second run is fast.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"
export LORE_CACHE_DIR="${LORE_CACHE_DIR:-$HOME/.cache/lore}"
export LORE_STATE_DIR="${LORE_STATE_DIR:-$(mktemp -d /tmp/lore-services.XXXXXX)}"
logs="$LORE_STATE_DIR/logs"
mkdir -p "$logs"

step() { printf '\n== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

cleanup() {
	"$root/scripts/neo4j/stop.sh" >/dev/null 2>&1 || true
	"$root/scripts/weaviate/stop.sh" >/dev/null 2>&1 || true
}
trap cleanup EXIT

step "format and vet"
unformatted="$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"
if [[ -n "$unformatted" ]]; then
	echo "gofmt would change:"
	echo "$unformatted"
	exit 1
fi
go vet ./...

step "install services and model (in parallel)"
model_data="$LORE_CACHE_DIR/test-data"
{ "$root/scripts/model/fetch.sh" "$model_data" && "$root/scripts/langchain4j/fetch.sh" minilm-q "$model_data" &&
	"$root/scripts/langchain4j/fetch.sh" bge "$model_data" && "$root/scripts/langchain4j/fetch.sh" e5v2 "$model_data"; } >"$logs/model.log" 2>&1 &
model_pid=$!
"$root/scripts/weaviate/install.sh" >"$logs/weaviate-install.log" 2>&1 &
weaviate_install_pid=$!

neo4j_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
neo4j_env="$("$root/scripts/neo4j/start.sh" "$neo4j_port" | tail -n 1)"
export "${neo4j_env?}"
echo "$neo4j_env"

if ! wait "$weaviate_install_pid"; then
	echo "weaviate install failed:"
	tail -n 40 "$logs/weaviate-install.log"
	exit 1
fi
weaviate_env="$("$root/scripts/weaviate/start.sh" | tail -n 1)"
export "${weaviate_env?}"
echo "$weaviate_env"

if ! wait "$model_pid"; then
	echo "model fetch failed:"
	tail -n 40 "$logs/model.log"
	exit 1
fi
export LORE_MODEL_DIR="$model_data/models/all-MiniLM-L6-v2"
export LORE_BGE_MODEL_DIR="$model_data/models/bge-small-en-v1.5-q"
export LORE_MINILMQ_MODEL_DIR="$model_data/models/all-MiniLM-L6-v2-q"
export LORE_E5V2_MODEL_DIR="$model_data/models/e5-small-v2-q"
echo "LORE_MODEL_DIR=$LORE_MODEL_DIR LORE_MINILMQ_MODEL_DIR=$LORE_MINILMQ_MODEL_DIR LORE_BGE_MODEL_DIR=$LORE_BGE_MODEL_DIR LORE_E5V2_MODEL_DIR=$LORE_E5V2_MODEL_DIR"
# The extractor's fact quality against LoCoMo's gold facts, when the shared
# benchmark data sits beside the checkout (as it does in CI).
if [[ -f "$root/../shared/bench/locomo/locomo_dev5.json" ]]; then
	export LORE_FQ_DATA="$root/../shared/bench/locomo/locomo_dev5.json" LORE_FQ_MODEL="$LORE_MODEL_DIR"
fi

step "conformance suites: embedded (sqlite), neo4j, weaviate"
set +e
go test -count=1 -v ./storetest/... ./graph/... ./index/... >"$logs/conformance.log" 2>&1
status=$?
set -e
# The subtest names carry the backend (sqlite/..., neo4j/..., weaviate/...).
grep -E -- '^\s*--- (PASS|FAIL|SKIP)|^(ok|FAIL|PASS)\b|^panic' "$logs/conformance.log" || true
if [[ "$status" -ne 0 ]]; then
	echo "conformance suites failed; the failures:"
	grep -E -B2 -A25 -- '--- FAIL' "$logs/conformance.log" | head -300
	exit "$status"
fi

step "all other tests"
# embed/e5 needs the multilingual model, which scripts/ci/51-e5.sh installs
# before it runs those tests.
go test -count=1 $(go list ./... | grep -v -E '/(storetest|graph|index|crypt|ingest)(/|$)|/embed/e5$')
# crypt and ingest run their Neo4j suites against the shared server: ingest's
# race and outage workers claim any due job, conformance job tests included,
# so these two packages run one after the other, never beside each other.
go test -count=1 -p 1 ./crypt/... ./ingest/...

# Extra suites: each scripts/ci/NN-name.sh runs with the services above
# started and their addresses exported (NEO4J_*, WEAVIATE_*, LORE_MODEL_DIR),
# in name order. Each installs what it needs (Python clients, Chromium, …).
for suite in "$root"/scripts/ci/*.sh; do
	[[ -e "$suite" ]] || continue
	step "suite $(basename "$suite")"
	"$suite"
done
