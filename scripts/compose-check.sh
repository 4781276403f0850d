#!/usr/bin/env bash
# compose-check.sh checks docker-compose.yml and the Dockerfile without a
# Docker engine (none runs in CI):
#
#  1. when a Compose v2+ client is available (`docker compose`, or a
#     docker-compose binary on PATH or in ${LORE_CACHE_DIR:-$HOME/.cache/lore}/bin),
#     `config` must accept the file with the required secrets set and refuse
#     it without them;
#  2. always, a structural check of what Lore's stack needs: the three
#     services with pinned images, health checks, depends_on with
#     condition service_healthy, the LORE_* wiring, named volumes, and a
#     Dockerfile that builds ./cmd/lore with cgo on Debian and runs on a slim
#     Debian image.
#
# Usage: compose-check.sh [COMPOSE_FILE [DOCKERFILE]] (defaults: the
# repository's). Exit status 0 when every check passes.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
compose_file="${1:-$root/docker-compose.yml}"
dockerfile="${2:-$root/Dockerfile}"
cache_bin="${LORE_CACHE_DIR:-$HOME/.cache/lore}/bin"

compose=()
if docker compose version >/dev/null 2>&1; then
	compose=(docker compose)
elif command -v docker-compose >/dev/null 2>&1 && ! docker-compose version 2>/dev/null | grep -q 'version 1\.'; then
	compose=(docker-compose)
elif [[ -x "$cache_bin/docker-compose" ]]; then
	compose=("$cache_bin/docker-compose")
fi

if ((${#compose[@]})); then
	echo "compose-check: validating with ${compose[*]} ($("${compose[@]}" version --short 2>/dev/null || echo unknown))"
	LORE_NEO4J_PASSWORD=check-password LORE_WEAVIATE_API_KEY=check-key \
		"${compose[@]}" -f "$compose_file" --project-directory "$root" config --quiet
	if env -u LORE_NEO4J_PASSWORD -u LORE_WEAVIATE_API_KEY \
		"${compose[@]}" -f "$compose_file" --project-directory "$root" --env-file /dev/null config --quiet >/dev/null 2>&1; then
		echo "compose-check: config accepted the file without LORE_NEO4J_PASSWORD and LORE_WEAVIATE_API_KEY" >&2
		exit 1
	fi
	echo "compose-check: compose config ok"
else
	echo "compose-check: no Compose v2 client found; running the structural check only"
fi

python3 - "$compose_file" "$dockerfile" <<'PY'
import re
import sys

import yaml

compose_path, dockerfile_path = sys.argv[1], sys.argv[2]
with open(compose_path) as f:
    doc = yaml.safe_load(f)
with open(dockerfile_path) as f:
    dockerfile = f.read()

errors = []


def need(cond, msg):
    if not cond:
        errors.append(msg)


services = doc.get("services") or {}
for name in ("neo4j", "weaviate", "lore"):
    need(name in services, f"service {name} is missing")

images = {
    "neo4j": r"^neo4j:5\.26(\.\d+)?-community$",
    "weaviate": r"^(cr\.weaviate\.io/)?semitechnologies/weaviate:1\.35\.2$",
}
for name, pattern in images.items():
    image = (services.get(name) or {}).get("image", "")
    need(re.match(pattern, image or ""), f"{name}: image {image!r} does not match {pattern}")

for name, svc in services.items():
    hc = (svc or {}).get("healthcheck") or {}
    need(hc.get("test"), f"{name}: no healthcheck test")
    need(not hc.get("disable"), f"{name}: healthcheck disabled")

lore = services.get("lore") or {}
build = lore.get("build") or {}
need(build.get("context") in (".", "./"), "lore: build.context must be the repository root")
need(build.get("dockerfile", "Dockerfile") == "Dockerfile", "lore: build.dockerfile must be Dockerfile")

deps = lore.get("depends_on") or {}
for dep in ("neo4j", "weaviate"):
    cond = (deps.get(dep) or {}).get("condition") if isinstance(deps, dict) else None
    need(cond == "service_healthy", f"lore: depends_on.{dep}.condition is {cond!r}, want service_healthy")


def env_of(svc):
    env = (svc or {}).get("environment") or {}
    if isinstance(env, list):
        env = dict(e.split("=", 1) if "=" in e else (e, None) for e in env)
    return env


env = env_of(lore)
need(str(env.get("LORE_GRAPH", "")).startswith("neo4j://neo4j:7687"), f"lore: LORE_GRAPH={env.get('LORE_GRAPH')!r}, want neo4j://neo4j:7687")
need(re.match(r"^(weaviate|http)://weaviate:8080/?$", str(env.get("LORE_INDEX", ""))), f"lore: LORE_INDEX={env.get('LORE_INDEX')!r}, want weaviate://weaviate:8080 or http://weaviate:8080")
for key in ("LORE_NEO4J_USER", "LORE_NEO4J_PASSWORD", "LORE_DATA_DIR", "LORE_WEAVIATE_API_KEY"):
    need(env.get(key), f"lore: {key} is not set")
need("LORE_NEO4J_PASSWORD" in str(env_of(services.get("neo4j")).get("NEO4J_AUTH", "")),
     "neo4j: NEO4J_AUTH must use LORE_NEO4J_PASSWORD, the password lore uses")
need("LORE_WEAVIATE_API_KEY" in str(env_of(services.get("weaviate")).get("AUTHENTICATION_APIKEY_ALLOWED_KEYS", "")),
     "weaviate: AUTHENTICATION_APIKEY_ALLOWED_KEYS must use LORE_WEAVIATE_API_KEY, the key lore sends")
wenv = env_of(services.get("weaviate"))
need(wenv.get("DEFAULT_VECTORIZER_MODULE") == "none", "weaviate: DEFAULT_VECTORIZER_MODULE must be none (Lore supplies vectors)")
need(wenv.get("PERSISTENCE_DATA_PATH"), "weaviate: PERSISTENCE_DATA_PATH is not set")
need(str(wenv.get("USE_INVERTED_SEARCHABLE")).lower() == "false",
     "weaviate: USE_INVERTED_SEARCHABLE must be false (1.35.2's BlockMax WAND loses BM25 matches; docs/weaviate.md)")

declared = set((doc.get("volumes") or {}).keys())
mounts = {"neo4j": "/data", "weaviate": wenv.get("PERSISTENCE_DATA_PATH"), "lore": env.get("LORE_DATA_DIR")}
for name, target in mounts.items():
    vols = (services.get(name) or {}).get("volumes") or []
    found = False
    for v in vols:
        src, _, dst = (v.partition(":") if isinstance(v, str) else (v.get("source"), None, v.get("target")))
        dst = dst.split(":")[0] if isinstance(dst, str) else dst
        if dst == target:
            found = True
            need(src in declared, f"{name}: volume {src!r} for {target} is not a declared named volume")
    need(found, f"{name}: no volume mounted at {target}")

for published in (lore.get("ports") or []):
    need(isinstance(published, str) and published.endswith(":8420"), f"lore: port {published!r} should publish 8420")
for name in ("neo4j", "weaviate"):
    for published in ((services.get(name) or {}).get("ports") or []):
        need(str(published).startswith("127.0.0.1:"), f"{name}: port {published!r} must be published on loopback only")

stages = re.findall(r"^FROM\s+(\S+)(?:\s+AS\s+(\S+))?", dockerfile, re.M | re.I)
need(len(stages) >= 2, "Dockerfile: want a multi-stage build")
need(any(img.startswith("golang:") and "bookworm" in img or "DEBIAN_RELEASE" in img for img, _ in stages[:1]),
     "Dockerfile: the first stage must build on a Debian-based golang image")
need(stages and re.match(r"^debian:.*slim$", stages[-1][0]), f"Dockerfile: final stage {stages[-1][0] if stages else None!r}, want debian:*-slim")
need(re.search(r"CGO_ENABLED=1\s+go build", dockerfile), "Dockerfile: must build with CGO_ENABLED=1")
need(re.search(r"go build[^\n]*(\\\n[^\n]*)*\./cmd/lore", dockerfile), "Dockerfile: must build ./cmd/lore")
need(re.search(r"^USER\s+(?!root)\S+", dockerfile, re.M), "Dockerfile: must run as a non-root user")
need(re.search(r"^HEALTHCHECK", dockerfile, re.M), "Dockerfile: no HEALTHCHECK")

if errors:
    for e in errors:
        print("compose-check: " + e, file=sys.stderr)
    sys.exit(1)
print(f"compose-check: structure ok ({len(services)} services, {len(declared)} volumes, {len(stages)} Dockerfile stages)")
PY
