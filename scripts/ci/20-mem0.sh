#!/usr/bin/env bash
# The mem0 SDK suite (tests/mem0): the real mem0ai package, at the version
# pinned in tests/mem0/requirements.txt, against a real `lore serve` with
# two API keys (the second for reset(), which erases its whole tenant).
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${LORE_CACHE_DIR:-$HOME/.cache/lore}/venv-mem0"
# shellcheck source=lib/serve.bash
source "$root/scripts/ci/lib/serve.bash"

if [[ ! -x "$venv/bin/python" ]]; then
	python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check -r "$root/tests/mem0/requirements.txt"

lore_serve mem0-ci mem0-ci-reset
status=0
LORE_MEM0_URL="$LORE_URL" LORE_MEM0_KEY="${LORE_KEYS[0]}" LORE_MEM0_RESET_KEY="${LORE_KEYS[1]}" \
	MEM0_TELEMETRY=False MEM0_DIR="$LORE_WORK/mem0" \
	"$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/tests/mem0" || status=$?
[[ $status -eq 0 ]] || lore_serve_log
exit "$status"
