#!/usr/bin/env bash
# 41-fuzz.sh — runs each Go fuzz target for a bounded number of executions
# (about 10-20 s each on the 2-core machine; FUZZ_EXECS overrides them all): the API's request decoders through the real router
# (FuzzRequestDecoders, FuzzCheckBodyUTF8), the metadata filter parser
# (FuzzParseFilter), the date parsers (temporal FuzzParse, lore
# FuzzParseTime) and the BM25 text analyzer (index/terms FuzzAnalyze). A
# failing input is written under the package's testdata/fuzz/ and the
# script fails; commit that file with the fix so it stays a regression test.
#
# Counts, not durations: go1.26's fuzz coordinator can report "context
# deadline exceeded" as a failure when a duration -fuzztime ends while a
# worker is mid-input (go.dev/issue/75804, fixed in go1.27). A count has no
# deadline to race; -timeout still bounds a stalled run.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# package, target, executions (sized from each target's rate here).
targets=(
	"./api FuzzRequestDecoders 8000"
	"./api FuzzCheckBodyUTF8 40000"
	"./retrieve FuzzParseFilter 80000"
	"./temporal FuzzParse 5000"
	". FuzzParseTime 300000"
	"./index/terms FuzzAnalyze 80000"
)
failed=()
for t in "${targets[@]}"; do
	read -r pkg name execs <<<"$t"
	execs="${FUZZ_EXECS:-$execs}"
	echo "--- fuzz $name ($pkg, ${execs} executions)"
	# -parallel 2: the machine's two cores, shared with the other suites.
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "${execs}x" -timeout 10m -parallel 2 "$pkg"; then
		failed+=("$name")
	fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
	echo "41-fuzz: failing targets: ${failed[*]}" >&2
	exit 1
fi
echo "41-fuzz: ${#targets[@]} targets, no failure"
