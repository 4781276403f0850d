#!/usr/bin/env bash
# 42-erase.sh: the erase race on the real Neo4j and Weaviate, hammered longer
# than the Go tests' defaults (issue 19 item 5). EraseSeq is read 200 erases
# long against concurrent fenced writes and must never pass an erase whose
# deletes have not run; TestEraseRace erases a user while their jobs run, 100
# times on Neo4j + Weaviate, half of them through a second service as another
# process would: 0 resurrections. Needs LORE_TEST_NEO4J_URL and
# LORE_TEST_WEAVIATE_URL (test-all.sh exports them). About 5 minutes on a
# loaded 2-core machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
: "${LORE_TEST_NEO4J_URL:?start scripts/neo4j/start.sh and export LORE_TEST_NEO4J_URL}"
: "${LORE_TEST_WEAVIATE_URL:?start scripts/weaviate/start.sh and export LORE_TEST_WEAVIATE_URL}"
LORE_TEST_ERASE_SEQ_ROUNDS="${LORE_TEST_ERASE_SEQ_ROUNDS:-200}" \
	go test ./graph/neo4j -run '^TestEraseSeqNeverPassesAnEraseInProgress$' -v -count=1 -timeout 15m
LORE_ERASE_RACE_TRIALS="${LORE_ERASE_RACE_TRIALS:-100}" \
	go test ./ingest -run '^TestEraseRace$/^neo4j\+weaviate$' -v -count=1 -timeout 30m
