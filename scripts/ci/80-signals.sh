#!/usr/bin/env bash
# 80-signals.sh — issue 14's exactness check with the real model: on the
# LoCoMo dev data, with the ranking signals' store attached and full of
# state, every signal off gives every question the same ids in the same
# order (and scores) as the pipeline without it (bench/signals_exact_test.go).
# The SQLite and Neo4j conformance of the signals' store runs with the other
# conformance suites (storetest.RunFeedback).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
data="${LORE_SIGNALS_DATA:-$root/../shared/bench/locomo/locomo_dev5.json}"
if [[ ! -f "$data" ]]; then
	echo "80-signals: $data not found (the shared LoCoMo dev file); set LORE_SIGNALS_DATA" >&2
	exit 1
fi
if [[ -z "${LORE_MODEL_DIR:-}" ]]; then
	echo "80-signals: LORE_MODEL_DIR is not set" >&2
	exit 1
fi
cd "$root"
LORE_SIGNALS_DATA="$data" LORE_SIGNALS_MODEL="$LORE_MODEL_DIR" \
	go test -count=1 -timeout 20m -run '^TestSignalsOffExactOnLoCoMo$' -v ./bench
