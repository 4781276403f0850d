"""Sync (Lore) and async (AsyncLore) clients of Lore's HTTP API over httpx."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Dict, List, Optional, Sequence, cast
from urllib.parse import quote

import httpx

from .types import (
    AddResult,
    Deleted,
    Erased,
    FactWritten,
    History,
    Job,
    Memory,
    MemoryPage,
    Message,
    SearchResponse,
    Usage,
)


class LoreError(Exception):
    """An error answer of the server: its status, Lore's error code
    (invalid, not_found, unauthorized, …) and message."""

    def __init__(self, status: int, code: str, message: str, request_id: Optional[str] = None):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.request_id = status, code, message, request_id


def _scope(user_id: Optional[str], agent_id: Optional[str], run_id: Optional[str]) -> Dict[str, str]:
    return {k: v for k, v in {"user_id": user_id, "agent_id": agent_id, "run_id": run_id}.items() if v}


def _body(**fields: Any) -> Dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


def _headers(api_key: Optional[str], tenant: Optional[str]) -> Dict[str, str]:
    h = {"Accept": "application/json"}
    if api_key:
        h["Authorization"] = f"Bearer {api_key}"
    elif tenant:
        h["X-Lore-Tenant"] = tenant
    return h


def _answer(resp: httpx.Response) -> Any:
    if resp.is_success:
        return resp.json()
    code, message = "internal", resp.text
    try:
        err = resp.json()["error"]
        code, message = err["code"], err["message"]
    except Exception:
        pass
    raise LoreError(resp.status_code, code, message, resp.headers.get("X-Request-ID"))


def _id(memory_id: str) -> str:
    return quote(memory_id, safe="")


class _Requests:
    """What a call sends: method, path, query and body; shared by both
    clients so that they cannot differ."""

    @staticmethod
    def add(messages: Sequence[Message] | str, user_id, agent_id, run_id, metadata, infer, sync):
        if isinstance(messages, str):
            messages = [{"role": "user", "content": messages}]
        body = _body(messages=list(messages), metadata=metadata, infer=infer, sync=sync or None, **_scope(user_id, agent_id, run_id))
        return "POST", "/v1/memories", None, body

    @staticmethod
    def search(query, user_id, agent_id, run_id, top_k, filters, threshold, explain, types, include_invalidated, since, until, query_time):
        body = _body(query=query, top_k=top_k, filters=filters, threshold=threshold, explain=explain or None, types=types,
                     include_invalidated=include_invalidated or None, since=since, until=until, query_time=query_time,
                     **_scope(user_id, agent_id, run_id))
        return "POST", "/v1/memories/search", None, body

    @staticmethod
    def list(user_id, agent_id, run_id, type, page, page_size, include_invalidated):
        q: Dict[str, Any] = _scope(user_id, agent_id, run_id)
        q.update(_body(type=type, page=page, page_size=page_size))
        if include_invalidated:
            q["include_invalidated"] = "true"
        return "GET", "/v1/memories", q, None


class Lore:
    """Synchronous client.

    >>> lore = Lore("http://127.0.0.1:8420", api_key=key)
    >>> lore.add("I live in Paris.", user_id="alice", sync=True)
    >>> lore.search("Where do I live?", user_id="alice")["results"][0]["memory"]
    """

    def __init__(self, base_url: str = "http://127.0.0.1:8420", api_key: Optional[str] = None, tenant: Optional[str] = None,
                 timeout: float = 60.0, http: Optional[httpx.Client] = None):
        self._http = http or httpx.Client(timeout=timeout)
        self._base = base_url.rstrip("/")
        self._headers = _headers(api_key, tenant)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Lore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _call(self, method: str, path: str, query: Optional[Dict[str, Any]] = None, body: Optional[Dict[str, Any]] = None) -> Any:
        return _answer(self._http.request(method, self._base + path, params=query, json=body, headers=self._headers))

    def add(self, messages: Sequence[Message] | str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None,
            run_id: Optional[str] = None, metadata: Optional[Dict[str, Any]] = None, infer: Optional[bool] = None,
            sync: bool = False) -> AddResult:
        """Store messages; extraction is queued (job_id) unless sync, and skipped with infer=False."""
        return cast(AddResult, self._call(*_Requests.add(messages, user_id, agent_id, run_id, metadata, infer, sync)))

    def search(self, query: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None, run_id: Optional[str] = None,
               top_k: Optional[int] = None, filters: Optional[Dict[str, Any]] = None, threshold: Optional[float] = None,
               explain: bool = False, types: Optional[List[str]] = None, include_invalidated: bool = False,
               since: Optional[str] = None, until: Optional[str] = None, query_time: Optional[str] = None) -> SearchResponse:
        """Facts and episodes ranked by Lore's pipeline, with a prompt-ready context."""
        return cast(SearchResponse, self._call(*_Requests.search(query, user_id, agent_id, run_id, top_k, filters, threshold, explain,
                                                                  types, include_invalidated, since, until, query_time)))

    def list(self, *, user_id: Optional[str] = None, agent_id: Optional[str] = None, run_id: Optional[str] = None,
             type: Optional[str] = None, page: Optional[int] = None, page_size: Optional[int] = None,
             include_invalidated: bool = False) -> MemoryPage:
        return cast(MemoryPage, self._call(*_Requests.list(user_id, agent_id, run_id, type, page, page_size, include_invalidated)))

    def get(self, memory_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None) -> Memory:
        return cast(Memory, self._call("GET", f"/v1/memories/{_id(memory_id)}", _scope(user_id, agent_id, None)))

    def update(self, memory_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None, text: Optional[str] = None,
               metadata: Optional[Dict[str, Any]] = None, subject: Optional[str] = None, predicate: Optional[str] = None,
               object: Optional[str] = None) -> Memory:
        body = _body(text=text, metadata=metadata, subject=subject, predicate=predicate, object=object, **_scope(user_id, agent_id, None))
        return cast(Memory, self._call("PUT", f"/v1/memories/{_id(memory_id)}", None, body))

    def delete(self, memory_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None) -> Deleted:
        return cast(Deleted, self._call("DELETE", f"/v1/memories/{_id(memory_id)}", _scope(user_id, agent_id, None)))

    def history(self, memory_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None) -> History:
        return cast(History, self._call("GET", f"/v1/memories/{_id(memory_id)}/history", _scope(user_id, agent_id, None)))

    def erase(self, *, user_id: Optional[str] = None, agent_id: Optional[str] = None, run_id: Optional[str] = None) -> Erased:
        """Erase everything in the scope."""
        return cast(Erased, self._call("DELETE", "/v1/memories", _scope(user_id, agent_id, run_id)))

    def add_fact(self, subject: str, predicate: str, object: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None,
                 object_is_entity: Optional[bool] = None, text: Optional[str] = None) -> FactWritten:
        body = _body(subject=subject, predicate=predicate, object=object, object_is_entity=object_is_entity, text=text,
                     **_scope(user_id, agent_id, None))
        return cast(FactWritten, self._call("POST", "/v1/facts", None, body))

    def job(self, job_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None) -> Job:
        return cast(Job, self._call("GET", f"/v1/jobs/{_id(job_id)}", _scope(user_id, agent_id, None)))

    def wait_job(self, job_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None, timeout: float = 60.0) -> Job:
        """Poll a job until it is done or failed."""
        deadline = time.monotonic() + timeout
        while True:
            job = self.job(job_id, user_id=user_id, agent_id=agent_id)
            if job["status"] in ("done", "failed") or time.monotonic() > deadline:
                return job
            time.sleep(0.1)

    def usage(self) -> Usage:
        return cast(Usage, self._call("GET", "/v1/usage"))


class AsyncLore:
    """Asynchronous client, with the same calls as Lore."""

    def __init__(self, base_url: str = "http://127.0.0.1:8420", api_key: Optional[str] = None, tenant: Optional[str] = None,
                 timeout: float = 60.0, http: Optional[httpx.AsyncClient] = None):
        self._http = http or httpx.AsyncClient(timeout=timeout)
        self._base = base_url.rstrip("/")
        self._headers = _headers(api_key, tenant)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> "AsyncLore":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    async def _call(self, method: str, path: str, query: Optional[Dict[str, Any]] = None, body: Optional[Dict[str, Any]] = None) -> Any:
        return _answer(await self._http.request(method, self._base + path, params=query, json=body, headers=self._headers))

    async def add(self, messages: Sequence[Message] | str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None,
                  run_id: Optional[str] = None, metadata: Optional[Dict[str, Any]] = None, infer: Optional[bool] = None,
                  sync: bool = False) -> AddResult:
        return cast(AddResult, await self._call(*_Requests.add(messages, user_id, agent_id, run_id, metadata, infer, sync)))

    async def search(self, query: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None, run_id: Optional[str] = None,
                     top_k: Optional[int] = None, filters: Optional[Dict[str, Any]] = None, threshold: Optional[float] = None,
                     explain: bool = False, types: Optional[List[str]] = None, include_invalidated: bool = False,
                     since: Optional[str] = None, until: Optional[str] = None, query_time: Optional[str] = None) -> SearchResponse:
        return cast(SearchResponse, await self._call(*_Requests.search(query, user_id, agent_id, run_id, top_k, filters, threshold,
                                                                        explain, types, include_invalidated, since, until, query_time)))

    async def list(self, *, user_id: Optional[str] = None, agent_id: Optional[str] = None, run_id: Optional[str] = None,
                   type: Optional[str] = None, page: Optional[int] = None, page_size: Optional[int] = None,
                   include_invalidated: bool = False) -> MemoryPage:
        return cast(MemoryPage, await self._call(*_Requests.list(user_id, agent_id, run_id, type, page, page_size, include_invalidated)))

    async def get(self, memory_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None) -> Memory:
        return cast(Memory, await self._call("GET", f"/v1/memories/{_id(memory_id)}", _scope(user_id, agent_id, None)))

    async def update(self, memory_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None,
                     text: Optional[str] = None, metadata: Optional[Dict[str, Any]] = None) -> Memory:
        body = _body(text=text, metadata=metadata, **_scope(user_id, agent_id, None))
        return cast(Memory, await self._call("PUT", f"/v1/memories/{_id(memory_id)}", None, body))

    async def delete(self, memory_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None) -> Deleted:
        return cast(Deleted, await self._call("DELETE", f"/v1/memories/{_id(memory_id)}", _scope(user_id, agent_id, None)))

    async def history(self, memory_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None) -> History:
        return cast(History, await self._call("GET", f"/v1/memories/{_id(memory_id)}/history", _scope(user_id, agent_id, None)))

    async def erase(self, *, user_id: Optional[str] = None, agent_id: Optional[str] = None, run_id: Optional[str] = None) -> Erased:
        return cast(Erased, await self._call("DELETE", "/v1/memories", _scope(user_id, agent_id, run_id)))

    async def job(self, job_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None) -> Job:
        return cast(Job, await self._call("GET", f"/v1/jobs/{_id(job_id)}", _scope(user_id, agent_id, None)))

    async def wait_job(self, job_id: str, *, user_id: Optional[str] = None, agent_id: Optional[str] = None,
                       timeout: float = 60.0) -> Job:
        deadline = time.monotonic() + timeout
        while True:
            job = await self.job(job_id, user_id=user_id, agent_id=agent_id)
            if job["status"] in ("done", "failed") or time.monotonic() > deadline:
                return job
            await asyncio.sleep(0.1)

    async def usage(self) -> Usage:
        return cast(Usage, await self._call("GET", "/v1/usage"))
