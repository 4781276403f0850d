"""README § Use it from…: the Python, LangChain and curl snippets, run as
written against the server."""

import contextlib
import io
import os
import pathlib
import re
import subprocess

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def snippet(name: str) -> str:
    m = re.search(r"<!-- snippet: " + name + r" -->\n```\w+\n(.*?)```", README.read_text(), re.S)
    assert m, f"README has no {name} snippet"
    return m.group(1)


def run_python(name: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet(name), f"README.md#{name}", "exec"), {})
    return out.getvalue()


def test_python_snippet(server, lore, monkeypatch):
    monkeypatch.setenv("LORE_URL", server[0])
    monkeypatch.setenv("LORE_API_KEY", server[1])
    out = run_python("python")
    assert "Emma lives in Rome" in out.splitlines()[0], out
    lore.erase(user_id="alice")


def test_langchain_snippet(server, lore, monkeypatch):
    monkeypatch.setenv("LORE_URL", server[0])
    monkeypatch.setenv("LORE_API_KEY", server[1])
    out = run_python("langchain")
    assert "Rex" in out, out
    lore.erase(user_id="bob")


def test_curl_snippet(server, lore):
    env = dict(os.environ, LORE_URL=server[0], LORE_API_KEY=server[1])
    out = subprocess.run(["bash", "-euo", "pipefail", "-c", snippet("curl")], env=env, capture_output=True, text=True, check=True).stdout
    # The add's events and the search's top result both name Stripe.
    assert '"event":"ADD"' in out and out.count("Stripe") >= 2, out
    lore.erase(user_id="carol")
