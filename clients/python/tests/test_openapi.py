"""The client's calls against the server's own /openapi.json: every route,
query parameter and TypedDict key must be in it."""

import typing

import httpx

from lore_memory import ROUTES


def _props(doc, schema):
    if "$ref" in schema:
        return _props(doc, doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]])
    out = set(schema.get("properties", {}))
    for sub in schema.get("oneOf", []) + schema.get("allOf", []):
        out |= _props(doc, sub)
    return out


def test_routes_match_openapi(server):
    doc = httpx.get(server[0] + "/openapi.json", headers={"Authorization": f"Bearer {server[1]}"}).json()
    problems = []
    for r in ROUTES:
        op = doc["paths"].get(r["path"], {}).get(r["method"].lower())
        if op is None:
            problems.append(f"{r['method']} {r['path']} is not in openapi.json")
            continue
        params = {p["name"] for p in op.get("parameters", [])}
        problems += [f"{r['path']}: query {q}" for q in r["query"] if q not in params]
        if r["request"] is not None:
            want = _props(doc, op["requestBody"]["content"]["application/json"]["schema"])
            problems += [f"{r['path']}: request key {k}" for k in typing.get_type_hints(r["request"]) if k not in want]
        have = set()
        for code in r["codes"]:
            have |= _props(doc, op["responses"][code]["content"]["application/json"]["schema"])
        problems += [f"{r['path']}: answer key {k}" for k in typing.get_type_hints(r["response"]) if k not in have]
    assert problems == []
    assert len(ROUTES) >= 10
