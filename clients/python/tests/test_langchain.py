import asyncio

from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage

from lore_memory import AsyncLore, Lore
from lore_memory.langchain import LoreChatMessageHistory, LoreRetriever


def test_retriever(lore: Lore, user: str, server):
    lore.add("I live in Paris and my sister Emma lives in Rome.", user_id=user, sync=True)
    retriever = LoreRetriever(client=lore, user_id=user, top_k=3)
    docs = retriever.invoke("Where does my sister live?")
    assert docs and isinstance(docs[0], Document)
    assert "Rome" in docs[0].page_content and docs[0].metadata["score"] > 0

    async def adocs():
        async with AsyncLore(server[0], api_key=server[1]) as ac:
            r = LoreRetriever(client=lore, async_client=ac, user_id=user, top_k=3)
            return await r.ainvoke("Where does my sister live?")

    assert [d.page_content for d in asyncio.run(adocs())] == [d.page_content for d in docs]
    lore.erase(user_id=user)


def test_chat_history(lore: Lore, user: str):
    history = LoreChatMessageHistory(lore, session_id="s1", user_id=user, sync=True)
    history.add_messages([HumanMessage(content="I moved to Lisbon last month."), AIMessage(content="How is Lisbon?")])
    history.add_user_message("Lovely. My dog Rex likes the beach.")
    msgs = history.messages
    assert [type(m) for m in msgs] == [HumanMessage, AIMessage, HumanMessage]
    assert msgs[0].content == "I moved to Lisbon last month." and msgs[2].content.startswith("Lovely")

    # What was said in the session is searchable as the user's memory.
    found = lore.search("Where do I live?", user_id=user, top_k=3)
    assert any("Lisbon" in r["memory"] for r in found["results"])

    # Another session of the same user starts empty; clear erases one session.
    assert LoreChatMessageHistory(lore, session_id="s2", user_id=user).messages == []
    history.clear()
    assert history.messages == []
    lore.erase(user_id=user)
