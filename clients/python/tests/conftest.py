"""A real `lore serve`, started by scripts/ci/21-python-client.sh, which
exports LORE_PY_URL and LORE_PY_KEY."""

import os
import uuid

import pytest

from lore_memory import AsyncLore, Lore


@pytest.fixture(scope="session")
def server():
    url, key = os.environ.get("LORE_PY_URL"), os.environ.get("LORE_PY_KEY")
    if not url or not key:
        msg = "no Lore server: run `bash scripts/ci/21-python-client.sh` (it starts one and sets LORE_PY_URL, LORE_PY_KEY)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return url, key


@pytest.fixture
def lore(server):
    with Lore(server[0], api_key=server[1]) as c:
        yield c


@pytest.fixture
def user():
    return "py-" + uuid.uuid4().hex[:12]
