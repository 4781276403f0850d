# lib.sh — helpers the model fetch scripts (scripts/model, scripts/e5,
# scripts/bge) source.

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
