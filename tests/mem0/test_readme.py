"""README § Use it from…: the mem0 snippet, run as written."""

import contextlib
import io
import os
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def snippet(name: str) -> str:
    m = re.search(r"<!-- snippet: " + name + r" -->\n```\w+\n(.*?)```", README.read_text(), re.S)
    assert m, f"README has no {name} snippet"
    return m.group(1)


def test_mem0_snippet(server, monkeypatch):
    monkeypatch.setenv("LORE_URL", server[0])
    monkeypatch.setenv("LORE_API_KEY", server[1])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet("mem0"), "README.md#mem0", "exec"), {})
    assert "Emma lives in Rome" in out.getvalue(), out.getvalue()

    from mem0 import MemoryClient

    MemoryClient(api_key=server[1], host=server[0]).delete_all(user_id="alice")
