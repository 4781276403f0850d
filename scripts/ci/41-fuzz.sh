#!/usr/bin/env bash
# 41-fuzz.sh — runs each Go fuzz target for a bounded time (FUZZ_TIME, 20s
# by default): the API's request decoders through the real router
# (FuzzRequestDecoders, FuzzCheckBodyUTF8), the metadata filter parser
# (FuzzParseFilter), the date parsers (temporal FuzzParse, lore
# FuzzParseTime) and the BM25 text analyzer (index/terms FuzzAnalyze). A
# failing input is written under the package's testdata/fuzz/ and the
# script fails; commit that file with the fix so it stays a regression test.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
fuzztime="${FUZZ_TIME:-20s}"
targets=(
	"./api FuzzRequestDecoders"
	"./api FuzzCheckBodyUTF8"
	"./retrieve FuzzParseFilter"
	"./temporal FuzzParse"
	". FuzzParseTime"
	"./index/terms FuzzAnalyze"
)
failed=()
for t in "${targets[@]}"; do
	read -r pkg name <<<"$t"
	echo "--- fuzz $name ($pkg, $fuzztime)"
	# -parallel 2: the machine's two cores, shared with the other suites.
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -parallel 2 "$pkg"; then
		failed+=("$name")
	fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
	echo "41-fuzz: failing targets: ${failed[*]}" >&2
	exit 1
fi
echo "41-fuzz: ${#targets[@]} targets, no failure"
