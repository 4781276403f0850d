#!/usr/bin/env bash
# install.sh builds the Weaviate server that Lore's tests and CI run against,
# with `go install`, into ${LORE_CACHE_DIR:-$HOME/.cache/lore}/bin. It does
# nothing when that binary is already there at the pinned version, so CI can
# call it on every run.
set -euo pipefail

WEAVIATE_VERSION="${WEAVIATE_VERSION:-v1.35.2}"
CACHE_DIR="${LORE_CACHE_DIR:-$HOME/.cache/lore}"
BIN_DIR="$CACHE_DIR/bin"
BIN="$BIN_DIR/weaviate-server"

installed_version() {
	# `go version -m` reads the module version the binary was built from,
	# which is more reliable than asking the server (it has no --version).
	go version -m "$1" 2>/dev/null | awk '$1 == "mod" && $2 == "github.com/weaviate/weaviate" { print $3 }'
}

if [[ -x "$BIN" && "$(installed_version "$BIN")" == "$WEAVIATE_VERSION" ]]; then
	echo "weaviate-server $WEAVIATE_VERSION already installed at $BIN"
	exit 0
fi

mkdir -p "$BIN_DIR"
echo "building weaviate-server $WEAVIATE_VERSION into $BIN_DIR (takes several minutes)..."
# Build from a neutral directory so no surrounding go.mod (Lore's) affects it.
cd "$(mktemp -d)"
GOBIN="$BIN_DIR" GOFLAGS="${GOFLAGS:-}" go install "github.com/weaviate/weaviate/cmd/weaviate-server@$WEAVIATE_VERSION"

got="$(installed_version "$BIN")"
if [[ "$got" != "$WEAVIATE_VERSION" ]]; then
	echo "install.sh: built $BIN reports version '$got', want $WEAVIATE_VERSION" >&2
	exit 1
fi
echo "installed weaviate-server $WEAVIATE_VERSION at $BIN"
