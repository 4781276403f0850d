# lib.sh — helpers the model fetch scripts (scripts/model, scripts/e5,
# scripts/langchain4j) source: checksums, the installed-directory check, the
# conversion venv and ONNX Runtime.

lib_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# onnxruntime-node 1.24.1 bundles ONNX Runtime 1.24.1, the C API version (24)
# that github.com/yalue/onnxruntime_go v1.27.0 is built against.
ort_pkg="onnxruntime-node@1.24.1"

# onnxruntime_build — "ARCH SHA256" of this machine's library in $ort_pkg;
# fails, saying why, where the package has none.
onnxruntime_build() {
	if [[ "$(uname -s)" != "Linux" ]]; then
		echo "fetch.sh: only Linux is supported (onnxruntime-node ships other systems' libraries under other names)" >&2
		return 1
	fi
	case "$(uname -m)" in
	x86_64 | amd64) echo "x64 53ef1ac028dd1b05554b8da28d9159eb3876f99868193d2aaa6e67f0243c23d4" ;;
	aarch64 | arm64) echo "arm64 7954e8bdedb497f830c6a679e818d98399b7f4d81ade1126c3e0be74d28111ab" ;;
	*)
		echo "fetch.sh: no ONNX Runtime build for $(uname -s)/$(uname -m) in $ort_pkg" >&2
		return 1
		;;
	esac
}

# fetch_onnxruntime WORK — downloads $ort_pkg into WORK through npm's cache,
# checks this machine's library and prints its path.
fetch_onnxruntime() {
	local build arch sum lib
	build="$(onnxruntime_build)" || return 1
	read -r arch sum <<<"$build"
	echo "fetch.sh: downloading $ort_pkg" >&2
	(cd "$1" && npm pack --silent "$ort_pkg" >/dev/null)
	tar -xzf "$1"/onnxruntime-node-*.tgz -C "$1" "package/bin/napi-v6/linux/$arch/libonnxruntime.so.1"
	lib="$1/package/bin/napi-v6/linux/$arch/libonnxruntime.so.1"
	check "$lib" "$sum" || return 1
	echo "$lib"
}

# install_runtime LIB DEST_DIR — puts the ONNX Runtime library LIB into
# DEST_DIR/libonnxruntime.so. Copied beside, then renamed: a running Lore
# has the old library mapped, and writing over it in place would crash that
# process (SIGBUS).
install_runtime() {
	cp "$1" "$2/libonnxruntime.so.new"
	mv "$2/libonnxruntime.so.new" "$2/libonnxruntime.so"
}

# write_manifest DEST WORK NAME SIZE SOURCE CONVERTER_SHA TOKENIZER — writes
# DEST/manifest.json for a model whose model.onnx, TOKENIZER (vocab.txt or
# tokenizer.json) and libonnxruntime.so are in DEST: SIZE is its length
# field ('"max_seq_length": 256'), SOURCE the JSON object naming where the
# weights and runtime came from. Written in WORK and moved in last, so an
# interrupted run leaves a directory embed/bert sees as incomplete.
write_manifest() {
	local dest="$1" work="$2" name="$3" size="$4" source="$5" converter="$6" tok="$7"
	cat >"$work/manifest.json" <<JSON
{
  "name": "$name",
  "dim": 384,
  $size,
  "source": $source,
  "converter_sha256": "$converter",
  "files": {
    "model.onnx": {"sha256": "$(sha "$dest/model.onnx")"},
    "$tok": {"sha256": "$(sha "$dest/$tok")"},
    "libonnxruntime.so": {"sha256": "$(sha "$dest/libonnxruntime.so")"}
  }
}
JSON
	mv "$work/manifest.json" "$dest/manifest.json"
	echo "fetch.sh: installed $name into $dest"
}

# model_venv — prints the private venv the converters run in (numpy, onnx,
# safetensors, pinned in requirements.txt), preparing it first when it is
# missing or its pins changed. Nothing goes into the system's Python.
model_venv() {
	local venv="${XDG_CACHE_HOME:-$HOME/.cache}/lore/model-venv" req="$lib_dir/requirements.txt"
	if ! "$venv/bin/python" -c "import numpy, onnx, safetensors" 2>/dev/null || ! cmp -s "$req" "$venv/requirements.txt"; then
		echo "fetch.sh: preparing the conversion environment in $venv" >&2
		rm -rf "$venv"
		python3 -m venv "$venv" >&2
		"$venv/bin/python" -m pip install --quiet -r "$req" >&2
		cp "$req" "$venv/requirements.txt"
	fi
	echo "$venv"
}

# sha FILE — its sha256, hex.
sha() { sha256sum "$1" | cut -d' ' -f1; }

# check FILE SHA256 — fail naming the file when the sum differs.
check() {
	local got
	got="$(sha "$1")"
	if [[ "$got" != "$2" ]]; then
		echo "fetch.sh: $1: sha256 $got, want $2" >&2
		return 1
	fi
}

# installed DEST CONVERTER_SHA256 WEIGHTS_SHA256 FILE... — DEST's manifest
# was written by this converter from these weights (an empty WEIGHTS_SHA256
# is not compared) and every FILE is present with the sum it records.
installed() {
	[[ -f "$1/manifest.json" ]] || return 1
	python3 - "$@" <<'PY'
import hashlib, json, os, sys
dest, converter, weights, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
with open(os.path.join(dest, "manifest.json")) as f:
    manifest = json.load(f)
if manifest.get("converter_sha256") != converter:
    sys.exit(1)
if weights and manifest.get("source", {}).get("weights_sha256") != weights:
    sys.exit(1)
for name in files:
    path = os.path.join(dest, name)
    if name not in manifest["files"] or not os.path.isfile(path):
        sys.exit(1)
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    if h.hexdigest() != manifest["files"][name]["sha256"]:
        sys.exit(1)
PY
}
