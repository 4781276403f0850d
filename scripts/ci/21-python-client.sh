#!/usr/bin/env bash
# The Python client suite (clients/python, package lore-memory, with its
# LangChain adapters) against a real `lore serve` with an API key; its
# test_openapi checks the client against the server's /openapi.json.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${LORE_CACHE_DIR:-$HOME/.cache/lore}/venv-pyclient"
# shellcheck source=lib/serve.bash
source "$root/scripts/ci/lib/serve.bash"

if [[ ! -x "$venv/bin/python" ]]; then
	python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check -r "$root/clients/python/requirements-test.txt"

lore_serve py-ci
# Installed from a copy, so that the build leaves nothing in the tree.
cp -r "$root/clients/python" "$LORE_WORK/pyclient"
"$venv/bin/pip" install -q --disable-pip-version-check --no-deps --force-reinstall "$LORE_WORK/pyclient"
status=0
LORE_PY_URL="$LORE_URL" LORE_PY_KEY="${LORE_KEYS[0]}" \
	"$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/clients/python/tests" || status=$?
[[ $status -eq 0 ]] || lore_serve_log
exit "$status"
