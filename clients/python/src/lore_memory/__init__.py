"""lore-memory: typed sync and async clients of the Lore memory server.

LangChain adapters live in lore_memory.langchain (extra "langchain")."""

from .client import AsyncLore, Lore, LoreError
from .types import ROUTES

__all__ = ["Lore", "AsyncLore", "LoreError", "ROUTES"]
__version__ = "0.1.0"
