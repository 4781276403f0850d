"""Request and answer shapes of Lore's HTTP API (api/README.md), as
TypedDicts. tests/test_openapi.py checks every key against the server's
/openapi.json, so these cannot drift from it."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict

Role = Literal["user", "assistant", "system", "tool"]
Kind = Literal["fact", "episode"]


class Scope(TypedDict, total=False):
    tenant_id: str
    user_id: str
    agent_id: str
    run_id: str


class Message(TypedDict, total=False):
    role: Role
    content: str
    name: str
    created_at: str
    source_id: str
    metadata: Dict[str, Any]


class AddRequest(TypedDict, total=False):
    messages: List[Message]
    user_id: str
    agent_id: str
    run_id: str
    metadata: Dict[str, Any]
    infer: bool
    sync: bool


class MemoryEvent(TypedDict):
    id: str
    memory: str
    event: str
    type: Kind


class AddResult(TypedDict, total=False):
    episode_ids: List[str]
    job_id: str
    results: List[MemoryEvent]


class SearchRequest(TypedDict, total=False):
    query: str
    user_id: str
    agent_id: str
    run_id: str
    top_k: int
    filters: Dict[str, Any]
    threshold: float
    explain: bool
    types: List[Kind]
    include_invalidated: bool
    since: str
    until: str
    query_time: str


class Source(TypedDict, total=False):
    episode_id: str
    source_id: str
    occurred_at: str
    content: str


class SearchResult(TypedDict, total=False):
    id: str
    type: Kind
    memory: str
    score: float
    fact: Dict[str, Any]
    sources: List[Source]
    score_details: Dict[str, float]
    passage: Dict[str, Any]


class SearchResponse(TypedDict):
    results: List[SearchResult]
    entities: List[Dict[str, Any]]
    context: str


class Memory(TypedDict, total=False):
    id: str
    type: Kind
    memory: str
    scope: Scope
    metadata: Dict[str, Any]
    created_at: str
    updated_at: str
    fact: Dict[str, Any]
    episode: Dict[str, Any]


class MemoryPage(TypedDict):
    results: List[Memory]
    page: int
    page_size: int
    has_more: bool


class UpdateRequest(TypedDict, total=False):
    text: str
    metadata: Dict[str, Any]
    subject: str
    predicate: str
    object: str
    object_is_entity: bool
    user_id: str
    agent_id: str
    run_id: str


class Deleted(TypedDict):
    id: str
    type: Kind
    event: str


class HistoryEvent(TypedDict, total=False):
    id: str
    memory_id: str
    scope: Scope
    event: str
    old_memory: str
    new_memory: str
    actor: str
    reason: str
    created_at: str


class History(TypedDict):
    memory_id: str
    results: List[HistoryEvent]


class Erased(TypedDict):
    scope: Scope
    deleted: Dict[str, int]


class FactRequest(TypedDict, total=False):
    subject: str
    predicate: str
    object: str
    object_is_entity: bool
    subject_type: str
    object_type: str
    text: str
    valid_at: str
    invalid_at: str
    confidence: float
    metadata: Dict[str, Any]
    user_id: str
    agent_id: str
    run_id: str


class FactWritten(TypedDict):
    id: str
    event: str
    fact: Dict[str, Any]
    results: List[MemoryEvent]


class Job(TypedDict, total=False):
    id: str
    scope: Scope
    kind: str
    episode_ids: List[str]
    status: Literal["queued", "running", "retrying", "done", "failed"]
    attempts: int
    max_attempts: int
    error: str
    results: List[MemoryEvent]
    next_run_at: str
    lease_until: str
    created_at: str
    updated_at: str
    request_id: str


class Usage(TypedDict):
    tenant_id: str
    llm: bool
    since: str
    calls: int
    cache_hits: int
    failures: int
    prompt_tokens: int
    completion_tokens: int


class Route(TypedDict):
    method: str
    path: str
    query: List[str]
    request: Optional[type]
    response: type
    codes: List[str]


#: Every call the clients make, for the contract test against /openapi.json.
ROUTES: List[Route] = [
    {"method": "POST", "path": "/v1/memories", "query": [], "request": AddRequest, "response": AddResult, "codes": ["200", "202"]},
    {"method": "POST", "path": "/v1/memories/search", "query": [], "request": SearchRequest, "response": SearchResponse, "codes": ["200"]},
    {"method": "GET", "path": "/v1/memories", "query": ["user_id", "agent_id", "run_id", "type", "page", "page_size", "include_invalidated"], "request": None, "response": MemoryPage, "codes": ["200"]},
    {"method": "GET", "path": "/v1/memories/{id}", "query": ["user_id", "agent_id", "run_id"], "request": None, "response": Memory, "codes": ["200"]},
    {"method": "PUT", "path": "/v1/memories/{id}", "query": [], "request": UpdateRequest, "response": Memory, "codes": ["200"]},
    {"method": "DELETE", "path": "/v1/memories/{id}", "query": ["user_id", "agent_id", "run_id"], "request": None, "response": Deleted, "codes": ["200"]},
    {"method": "GET", "path": "/v1/memories/{id}/history", "query": ["user_id", "agent_id", "run_id"], "request": None, "response": History, "codes": ["200"]},
    {"method": "DELETE", "path": "/v1/memories", "query": ["user_id", "agent_id", "run_id"], "request": None, "response": Erased, "codes": ["200"]},
    {"method": "POST", "path": "/v1/facts", "query": [], "request": FactRequest, "response": FactWritten, "codes": ["201"]},
    {"method": "GET", "path": "/v1/jobs/{id}", "query": ["user_id", "agent_id", "run_id"], "request": None, "response": Job, "codes": ["200"]},
    {"method": "GET", "path": "/v1/usage", "query": [], "request": None, "response": Usage, "codes": ["200"]},
]
