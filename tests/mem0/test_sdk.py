"""The mem0 SDK's MemoryClient and AsyncMemoryClient, unchanged, against a
real Lore server (api/README.md § mem0 compatibility)."""

import asyncio
import time

import pytest
from mem0 import AsyncMemoryClient, MemoryClient
from mem0.exceptions import MemoryNotFoundError, ValidationError

SISTER = [
    {"role": "user", "content": "I live in Paris and my sister Emma lives in Rome."},
    {"role": "assistant", "content": "Rome and Paris, lovely."},
]


def wait_event(client, event_id, timeout=30):
    """Poll the extraction job an add queued (GET /v1/event/{id}/) through
    the SDK's own HTTP client, as mem0's docs tell users to."""
    deadline = time.time() + timeout
    while True:
        ev = client.client.get(f"/v1/event/{event_id}/").json()
        if ev["status"] in ("SUCCEEDED", "FAILED"):
            return ev
        assert time.time() < deadline, f"event {event_id} still {ev['status']}"
        time.sleep(0.1)


def test_construction_checks_the_key(server):
    url, _ = server
    with pytest.raises(ValueError):
        MemoryClient(api_key="lore_" + "A" * 43, host=url)


def test_add_verbatim_get_update_history_delete(client, user):
    added = client.add("Remember: the wifi password is tulip.", user_id=user, infer=False, metadata={"src": "note"})
    assert added["status"] == "SUCCEEDED"
    (ev,) = added["results"]
    assert ev["event"] == "ADD" and ev["data"]["memory"] == "Remember: the wifi password is tulip."

    mem = client.get(ev["id"])  # no user: the key's tenant holds the id
    assert mem["id"] == ev["id"] and mem["user_id"] == user and mem["metadata"] == {"src": "note"}
    assert mem["lore"]["type"] == "episode"

    updated = client.update(ev["id"], text="Remember: the wifi password is daisy.")
    assert updated["memory"] == "Remember: the wifi password is daisy."
    updated = client.update(ev["id"], metadata={"src": "note", "v": 2})
    assert updated["metadata"] == {"src": "note", "v": 2}

    history = client.history(ev["id"])
    assert isinstance(history, list)
    assert [h["event"] for h in history][:2] == ["ADD", "UPDATE"]
    assert history[1]["old_memory"] == "Remember: the wifi password is tulip."
    assert history[1]["new_memory"] == "Remember: the wifi password is daisy."

    assert client.delete(ev["id"]) == {"message": "Memory deleted successfully!"}
    with pytest.raises(MemoryNotFoundError):
        client.get(ev["id"])
    assert client.history(ev["id"])[-1]["event"] == "DELETE"


def test_add_with_inference_then_search_v1_and_v2_filters(client, user):
    queued = client.add(SISTER, filters={"user_id": user}, version="v2", output_format="v1.1")
    assert queued["status"] == "PENDING" and queued["event_id"]
    done = wait_event(client, queued["event_id"])
    assert done["status"] == "SUCCEEDED"
    assert any("Rome" in r["memory"] for r in done["results"])

    for filters in (
        {"user_id": user},  # v1: flat
        {"AND": [{"user_id": user}, {"created_at": {"gte": "2000-01-01"}}]},  # v2
        {"OR": [{"user_id": {"in": [user]}}]},
    ):
        found = client.search("Where does my sister live?", filters=filters, top_k=3)
        assert found["results"], filters
        top = found["results"][0]
        assert "Rome" in top["memory"], (filters, top)
        assert top["user_id"] == user and 0 < top["score"]

    # Nothing crosses users: another user's search finds none of this.
    other = client.search("Where does my sister live?", filters={"user_id": user + "-other"})
    assert other["results"] == []


def test_sync_add_and_graph_relations(client, user):
    added = client.add(SISTER, filters={"user_id": user}, async_mode=False)
    assert added["status"] == "SUCCEEDED"
    events = {r["memory"]: r for r in added["results"]}
    assert any(r["event"] == "ADD" for r in events.values())

    found = client.search("Where does Emma live?", filters={"user_id": user}, enable_graph=True)
    rels = found["relations"]
    assert {"source": "Emma", "relationship": "lives_in", "destination": "Rome"} in rels, rels

    listed = client.get_all(filters={"user_id": user}, enable_graph=True)
    assert {"source": "Emma", "relationship": "lives_in", "target": "Rome"} in listed["relations"]


def test_get_all_pages(client, user):
    for i in range(5):
        client.add(f"note number {i}", user_id=user, infer=False)
    page = client.get_all(filters={"user_id": user}, page=1, page_size=2)
    assert page["count"] == 5 and len(page["results"]) == 2
    assert page["next"] and page["previous"] is None
    last = client.get_all(filters={"user_id": user}, page=3, page_size=2)
    assert len(last["results"]) == 1 and last["next"] is None and last["previous"]
    ids = {m["id"] for p in (1, 2, 3) for m in client.get_all(filters={"user_id": user}, page=p, page_size=2)["results"]}
    assert len(ids) == 5


def test_validity_maps_to_expiration(client, user):
    """Lore closes a fact's validity where mem0 gives it an expiration date:
    a closed fact is hidden from get_all and search unless show_expired."""
    added = client.add("I work at Google.", filters={"user_id": user}, async_mode=False)
    fact = next(r for r in added["results"] if r["type"] == "fact" and "Google" in r["memory"])
    expired = client.update(fact["id"], expiration_date="2020-01-31")
    assert expired["expiration_date"] == "2020-01-31" and expired["lore"]["current"] is False

    ids = lambda res: {m["id"] for m in res["results"]}  # noqa: E731
    assert fact["id"] not in ids(client.get_all(filters={"user_id": user}))
    assert fact["id"] in ids(client.get_all(filters={"user_id": user}, show_expired=True))
    assert fact["id"] not in ids(client.search("Where do I work?", filters={"user_id": user}))
    assert fact["id"] in ids(client.search("Where do I work?", filters={"user_id": user}, show_expired=True))

    # A contradiction closes the old value the same way (Lore's INVALIDATE is
    # an UPDATE in mem0's history).
    added = client.add("I live in Paris.", filters={"user_id": user}, async_mode=False)
    paris = next(r for r in added["results"] if r["type"] == "fact" and "Paris" in r["memory"])
    client.add("I live in Lyon now.", filters={"user_id": user}, async_mode=False)
    hist = client.history(paris["id"])
    assert hist[-1]["event"] == "UPDATE" and hist[-1]["lore_event"] == "INVALIDATE", hist
    assert client.get(paris["id"])["expiration_date"] is not None


def test_users_delete_all_and_delete_users(client, user):
    client.add("first", user_id=user, infer=False)
    client.add("second", filters={"user_id": user, "run_id": "r1"}, infer=False)
    names = {(e["type"], e["name"]): e for e in client.users()["results"]}
    assert ("user", user) in names and ("run", "r1") in names
    assert names[("user", user)]["total_memories"] == 2

    client.delete_all(user_id=user, run_id="r1")
    assert len(client.get_all(filters={"user_id": user})["results"]) == 1
    assert client.delete_users(user_id=user) == {"message": "Entity deleted successfully."}
    assert client.get_all(filters={"user_id": user})["results"] == []


def test_refusals_name_what_lore_cannot_honour(client, user):
    with pytest.raises(ValidationError) as err:
        client.search("q", filters={"OR": [{"user_id": user}, {"user_id": "someone-else"}]})
    assert "OR" in str(err.value)
    with pytest.raises(ValidationError) as err:
        client.add("hi", user_id=user, custom_instructions="only food")
    assert "custom_instructions" in str(err.value)
    with pytest.raises(MemoryNotFoundError):
        client.get("00000000-0000-0000-0000-000000000000")


def test_async_client(server, user):
    url, key = server

    async def flow():
        async with AsyncMemoryClient(api_key=key, host=url) as ac:
            added = await ac.add("The door code is 4321.", user_id=user, infer=False)
            mem_id = added["results"][0]["id"]
            found = await ac.search("door code", filters={"user_id": user})
            assert found["results"][0]["id"] == mem_id
            assert (await ac.get(mem_id))["memory"] == "The door code is 4321."
            assert (await ac.update(mem_id, text="The door code is 9999."))["memory"] == "The door code is 9999."
            assert [h["event"] for h in await ac.history(mem_id)] == ["ADD", "UPDATE"]
            listed = await ac.get_all(filters={"user_id": user})
            assert listed["count"] == 1
            assert any(e["name"] == user for e in (await ac.users())["results"])
            assert (await ac.delete(mem_id))["message"]
            await ac.delete_all(user_id=user)

    asyncio.run(flow())


def test_reset_erases_the_tenant(server):
    """reset() deletes every user, agent and run: run with a key of a tenant
    of its own (LORE_MEM0_RESET_KEY)."""
    import os

    url = server[0]
    key = os.environ.get("LORE_MEM0_RESET_KEY")
    if not key:
        pytest.fail("LORE_MEM0_RESET_KEY is not set: scripts/ci/20-mem0.sh creates it")
    c = MemoryClient(api_key=key, host=url)
    c.add("one", user_id="r-alice", infer=False)
    c.add("two", agent_id="r-bot", infer=False)
    c.add("three", filters={"user_id": "r-carol", "run_id": "r-run"}, infer=False)
    assert len(c.users()["results"]) == 4
    assert c.reset()["message"]
    assert c.users()["results"] == []
