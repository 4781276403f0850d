"""Fixtures for the mem0 SDK suite: a real `lore serve` started by
scripts/ci/20-mem0.sh, which exports LORE_MEM0_URL and LORE_MEM0_KEY.

Run it with `bash scripts/ci/20-mem0.sh`; it builds Lore, starts it on a free
loopback port with a fresh data directory and a key, and runs pytest here.
"""

import os
import uuid

import pytest

# The SDK reports usage to its vendor unless told not to; the suite talks to
# the local server only.
os.environ.setdefault("MEM0_TELEMETRY", "False")


def _server():
    url, key = os.environ.get("LORE_MEM0_URL"), os.environ.get("LORE_MEM0_KEY")
    if not url or not key:
        msg = "no Lore server: run `bash scripts/ci/20-mem0.sh` (it starts one and sets LORE_MEM0_URL, LORE_MEM0_KEY)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return url, key


@pytest.fixture(scope="session")
def server():
    return _server()


@pytest.fixture(scope="session")
def client(server):
    from mem0 import MemoryClient

    url, key = server
    return MemoryClient(api_key=key, host=url)


@pytest.fixture
def user():
    """A user id no other test uses."""
    return "u-" + uuid.uuid4().hex[:12]
