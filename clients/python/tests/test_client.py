import asyncio

import pytest

from lore_memory import AsyncLore, Lore, LoreError


def test_round_trip(lore: Lore, user: str):
    added = lore.add([{"role": "user", "content": "I live in Paris and my sister Emma lives in Rome."}], user_id=user, sync=True)
    assert added["episode_ids"] and any("Rome" in e["memory"] for e in added["results"])

    found = lore.search("Where does my sister live?", user_id=user, top_k=3, explain=True)
    top = found["results"][0]
    assert "Rome" in top["memory"] and top["score"] > 0 and top["score_details"]
    assert found["context"]

    page = lore.list(user_id=user, type="fact", page_size=2)
    assert len(page["results"]) == 2 and page["has_more"]
    mem_id = page["results"][0]["id"]
    assert lore.get(mem_id, user_id=user)["id"] == mem_id
    assert lore.update(mem_id, user_id=user, metadata={"k": "v"})["metadata"] == {"k": "v"}
    assert [h["event"] for h in lore.history(mem_id, user_id=user)["results"]][:2] == ["ADD", "UPDATE"]
    assert lore.delete(mem_id, user_id=user)["event"] == "DELETE"
    with pytest.raises(LoreError) as err:
        lore.get(mem_id, user_id=user)
    assert err.value.status == 404 and err.value.code == "not_found"

    fact = lore.add_fact("Emma", "works_as", "architect", user_id=user, object_is_entity=False)
    assert fact["fact"]["predicate"] == "works_as"

    queued = lore.add("I started learning the cello.", user_id=user)
    job = lore.wait_job(queued["job_id"], user_id=user)
    assert job["status"] == "done" and job["request_id"]

    usage = lore.usage()
    assert usage["tenant_id"] == "py-ci" and usage["llm"] is False

    erased = lore.erase(user_id=user)
    assert erased["deleted"]["facts"] > 0
    assert lore.list(user_id=user)["results"] == []


def test_errors_name_the_field(lore: Lore):
    with pytest.raises(LoreError) as err:
        lore.search("anything")
    assert err.value.status == 400 and "user_id" in err.value.message


def test_bad_key(server):
    with Lore(server[0], api_key="lore_" + "A" * 43) as bad:
        with pytest.raises(LoreError) as err:
            bad.list(user_id="x")
    assert err.value.status == 401 and err.value.code == "unauthorized"


def test_async_client(server, user: str):
    async def flow():
        async with AsyncLore(server[0], api_key=server[1]) as c:
            await c.add("The door code is 4321.", user_id=user, infer=False)
            found = await c.search("door code", user_id=user)
            mem_id = found["results"][0]["id"]
            assert found["results"][0]["memory"] == "The door code is 4321."
            assert (await c.update(mem_id, user_id=user, text="The door code is 9999."))["memory"] == "The door code is 9999."
            assert (await c.get(mem_id, user_id=user))["memory"] == "The door code is 9999."
            queued = await c.add("I work at Acme.", user_id=user)
            assert (await c.wait_job(queued["job_id"], user_id=user))["status"] == "done"
            assert (await c.delete(mem_id, user_id=user))["event"] == "DELETE"
            await c.erase(user_id=user)

    asyncio.run(flow())
