"""LangChain adapters (langchain-core): a retriever over Lore's search and a
chat message history kept in Lore. Install with `pip install lore-memory[langchain]`."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from .client import AsyncLore, Lore
from .types import SearchResult


def _document(r: SearchResult) -> Document:
    meta = {"id": r["id"], "type": r["type"], "score": r["score"]}
    fact = r.get("fact")
    if fact:
        meta.update(subject=fact.get("subject"), predicate=fact.get("predicate"), object=fact.get("object"))
    sources = r.get("sources") or []
    if sources:
        meta["source_episode_ids"] = [s["episode_id"] for s in sources]
    return Document(page_content=r["memory"], metadata=meta)


class LoreRetriever(BaseRetriever):
    """Retrieves a user's (or agent's) memories from Lore: facts and
    conversation turns, as Documents ordered by Lore's score."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    client: Lore
    async_client: Optional[AsyncLore] = None
    user_id: Optional[str] = None
    agent_id: Optional[str] = None
    run_id: Optional[str] = None
    top_k: int = 5

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> List[Document]:
        resp = self.client.search(query, user_id=self.user_id, agent_id=self.agent_id, run_id=self.run_id, top_k=self.top_k)
        return [_document(r) for r in resp["results"]]

    async def _aget_relevant_documents(self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun) -> List[Document]:
        if self.async_client is None:
            return await super()._aget_relevant_documents(query, run_manager=run_manager)
        resp = await self.async_client.search(query, user_id=self.user_id, agent_id=self.agent_id, run_id=self.run_id, top_k=self.top_k)
        return [_document(r) for r in resp["results"]]


_ROLES = {"human": "user", "ai": "assistant", "system": "system"}


class LoreChatMessageHistory(BaseChatMessageHistory):
    """A conversation kept in Lore: each session is a run of the user, every
    message an episode Lore extracts facts from (infer=True, queued), so
    what is said in one session is searchable from the others."""

    def __init__(self, client: Lore, session_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None,
                 infer: bool = True, sync: bool = False):
        if not user_id and not agent_id:
            raise ValueError("user_id or agent_id is required")
        self.client, self.session_id = client, session_id
        self.user_id, self.agent_id, self.infer, self.sync = user_id, agent_id, infer, sync

    @property
    def messages(self) -> List[BaseMessage]:  # type: ignore[override]
        out: List[BaseMessage] = []
        page = 1
        while True:
            resp = self.client.list(user_id=self.user_id, agent_id=self.agent_id, run_id=self.session_id, type="episode",
                                    page=page, page_size=1000)
            for m in resp["results"]:
                ep: Any = m.get("episode") or {}
                role, text = ep.get("role", "user"), m["memory"]
                out.append(AIMessage(content=text) if role == "assistant" else SystemMessage(content=text) if role == "system" else HumanMessage(content=text))
            if not resp["has_more"]:
                return out
            page += 1

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        msgs = []
        for m in messages:
            role = _ROLES.get(m.type)
            if role is None:
                raise ValueError(f"message type {m.type!r} cannot be stored in Lore (human, ai or system)")
            content = m.content if isinstance(m.content, str) else " ".join(
                part["text"] for part in m.content if isinstance(part, dict) and part.get("type") == "text")
            msgs.append({"role": role, "content": content})
        if msgs:
            self.client.add(msgs, user_id=self.user_id, agent_id=self.agent_id, run_id=self.session_id, infer=self.infer, sync=self.sync)

    def clear(self) -> None:
        self.client.erase(user_id=self.user_id, agent_id=self.agent_id, run_id=self.session_id)
