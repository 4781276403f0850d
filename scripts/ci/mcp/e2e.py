"""End-to-end test of Lore's MCP server with the Python `mcp` SDK: an MCP
client from another ecosystem than the Go SDK that Lore is built on.

It talks to a real `lore serve` over streamable HTTP at /mcp (with an API key)
and to a real `lore mcp` over stdio. Run by scripts/ci/30-mcp-python.sh, which
starts the server and passes LORE_BIN, LORE_URL, LORE_KEY, LORE_STDIO_DATA.
"""

import asyncio
import json
import os
import re
import sys
import traceback

import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

TOOLS = {"add_memory", "search_memory", "list_memories", "get_memory", "update_memory", "delete_memory",
         "get_profile", "set_profile", "delete_profile_key", "record_feedback"}

passed, failed = 0, 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def structured(res):
    if res.structured_content is not None:
        return res.structured_content
    return json.loads(res.content[0].text)


def text(res):
    return "\n".join(c.text for c in res.content if getattr(c, "text", None))


def http_client(key):
    return streamable_http_client(os.environ["LORE_URL"] + "/mcp",
                                  http_client=create_mcp_http_client(headers={"Authorization": f"Bearer {key}"} if key else None))


async def walk(client, label, user_args, pinned=""):
    """Every tool and the facts resource, for a client whose calls are pinned
    to one user (user_args is {} then) or name it (user_args has user_id)."""
    tools = await client.list_tools()
    names = {t.name for t in tools.tools}
    check(f"{label}: tools listed", names == TOOLS, f"got {sorted(names)}")
    search = next(t for t in tools.tools if t.name == "search_memory")
    check(f"{label}: search_memory schema requires query", "query" in search.input_schema.get("required", []),
          json.dumps(search.input_schema))

    added = structured(await client.call_tool("add_memory", {**user_args, "messages": [
        {"role": "user", "content": "I live in Lisbon. My brother Tiago works at Siemens.",
         "created_at": "2024-03-01T09:00:00Z"}]}))
    facts = [r for r in added["results"] if r["type"] == "fact"]
    check(f"{label}: add_memory extracts facts", any("Lisbon" in r["memory"] for r in facts), json.dumps(added))
    lisbon = next((r["id"] for r in facts if "Lisbon" in r["memory"]), None)

    found = structured(await client.call_tool("search_memory", {**user_args, "query": "Where does my brother work?", "explain": True}))
    top = found["results"][0] if found["results"] else {}
    check(f"{label}: search_memory ranks the brother's employer first", "Siemens" in top.get("memory", ""), json.dumps(found)[:500])
    check(f"{label}: explain gives per-signal scores", "score_details" in top, json.dumps(top)[:300])

    # The conversation fed the profile; set_profile adds an explicit entry.
    profile = structured(await client.call_tool("get_profile", user_args))
    entries = {e["key"]: e for e in profile["entries"]}
    check(f"{label}: get_profile has the stated city", entries.get("location", {}).get("value") == "Lisbon"
          and entries["location"]["source"] == "explicit", json.dumps(profile))
    written = structured(await client.call_tool("set_profile", {**user_args, "entries": [{"key": "diet", "value": "vegan"}]}))
    check(f"{label}: set_profile writes an explicit entry",
          any(e["key"] == "diet" and e["value"] == "vegan" and e["source"] == "explicit" for e in written["entries"]), json.dumps(written))
    bad = await client.call_tool("set_profile", {**user_args, "entries": [{"key": "diet", "value": ""}]})
    check(f"{label}: a bad profile entry is a tool error naming it", bad.is_error and "entries[0]" in text(bad), text(bad))

    rated = structured(await client.call_tool("record_feedback", {**user_args, "memory_id": top.get("id", ""), "helpful": True,
                                                                  "query": "Where does my brother work?"}))
    check(f"{label}: record_feedback returns the new relevance",
          rated.get("memory_id") == top.get("id") and abs(rated.get("new_relevance", 0) - 1.15) < 1e-9, json.dumps(rated))
    rated = structured(await client.call_tool("record_feedback", {**user_args, "memory_id": top.get("id", ""), "helpful": False}))
    check(f"{label}: an unhelpful verdict lowers it", abs(rated.get("new_relevance", 0) - 1.05) < 1e-9, json.dumps(rated))

    listed = structured(await client.call_tool("list_memories", {**user_args, "type": "fact"}))
    check(f"{label}: list_memories lists the facts", len(listed["results"]) >= 2, json.dumps(listed)[:300])

    updated = structured(await client.call_tool("update_memory", {**user_args, "id": lisbon, "text": "I live in Porto."}))
    check(f"{label}: update_memory changes the fact", "Porto" in updated["memory"], json.dumps(updated))
    got = structured(await client.call_tool("get_memory", {**user_args, "id": lisbon, "history": True}))
    events = [h["event"] for h in got["history"]]
    check(f"{label}: get_memory returns the history", events[:2] == ["ADD", "UPDATE"], f"events {events}")

    user = user_args.get("user_id") or pinned
    res = await client.read_resource(f"lore://users/{user}/facts")
    body = res.contents[0].text
    check(f"{label}: facts resource lists current facts", "Porto" in body and "Siemens" in body, body)
    res = await client.read_resource(f"lore://users/{user}/profile")
    body = res.contents[0].text
    check(f"{label}: profile resource lists the entries", "diet: vegan (explicit" in body, body)
    forgot = structured(await client.call_tool("delete_profile_key", {**user_args, "key": "diet"}))
    check(f"{label}: delete_profile_key forgets the key", forgot.get("key") == "diet" and forgot.get("deleted") == 1, json.dumps(forgot))
    again = await client.call_tool("delete_profile_key", {**user_args, "key": "diet"})
    check(f"{label}: forgetting it again is not_found", again.is_error and "not_found" in text(again), text(again))

    bad = await client.call_tool("search_memory", {**user_args, "query": "   "})
    check(f"{label}: bad input is a tool error naming the field", bad.is_error and "query is required" in text(bad), text(bad))

    deleted = structured(await client.call_tool("delete_memory", {**user_args, "id": lisbon}))
    check(f"{label}: delete_memory deletes", deleted.get("event") == "DELETE", json.dumps(deleted))
    gone = await client.call_tool("get_memory", {**user_args, "id": lisbon})
    check(f"{label}: a deleted memory is not found", gone.is_error and "not_found" in text(gone), text(gone))


async def over_http():
    key = os.environ["LORE_KEY"]
    async with Client(http_client(key)) as client:
        await walk(client, "http", {}, pinned=os.environ["LORE_PINNED_USER"])
        other = await client.call_tool("list_memories", {"user_id": "mallory"})
        check("http: a key pinned to a user refuses another user", other.is_error and "forbidden" in text(other), text(other))
        other = await client.call_tool("get_profile", {"user_id": "mallory"})
        check("http: a pinned key refuses another user's profile", other.is_error and "forbidden" in text(other), text(other))
    # Without a key, the server refuses the connection: the SDK raises, and
    # the same request sent by hand gets Lore's 401 and JSON error.
    try:
        async with Client(http_client(None)) as client:
            await client.list_tools()
        check("http: the SDK without a key is refused", False, "connected without a key")
    except Exception as e:
        check("http: the SDK without a key is refused", True)
    async with httpx2.AsyncClient() as raw:
        r = await raw.post(os.environ["LORE_URL"] + "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                           headers={"Accept": "application/json, text/event-stream"})
        check("http: no key is a 401 with Lore's error body", r.status_code == 401 and r.json()["error"]["code"] == "unauthorized",
              f"{r.status_code} {r.text[:200]}")


def readme_config():
    """The Claude Desktop config of README.md, so the snippet users copy is
    the command this test starts (with this run's binary and data dir)."""
    readme = open(os.path.join(os.path.dirname(__file__), "../../../README.md")).read()
    m = re.search(r"```json\n(\s*\{\s*\"mcpServers\".*?)```", readme, re.S)
    if not m:
        raise SystemExit("README.md has no Claude Desktop config (a json block with mcpServers)")
    server = json.loads(m.group(1))["mcpServers"]["lore"]
    args = list(server["args"])
    args[args.index("--data-dir") + 1] = os.environ["LORE_STDIO_DATA"]
    return server["command"], args


async def over_stdio():
    command, args = readme_config()
    check("stdio: README config runs lore mcp", command == "lore" and args[0] == "mcp", f"{command} {args}")
    user = args[args.index("--user") + 1]
    params = StdioServerParameters(command=os.environ["LORE_BIN"], args=args, env={**os.environ})
    async with Client(params) as client:
        await walk(client, "stdio (README config)", {}, pinned=user)
    # Without --user, calls name their user.
    params = StdioServerParameters(command=os.environ["LORE_BIN"], args=[
        "mcp", "--data-dir", os.environ["LORE_STDIO_DATA"], "--tenant", "acme"], env={**os.environ})
    async with Client(params) as client:
        await walk(client, "stdio", {"user_id": "carol"})


async def main():
    for name, fn in [("http", over_http), ("stdio", over_stdio)]:
        try:
            await fn()
        except Exception:
            traceback.print_exc()
            check(f"{name}: session ran", False)
    print(f"mcp python e2e: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
