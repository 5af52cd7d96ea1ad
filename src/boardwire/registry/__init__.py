"""The command registry (C3): every command declared once, reached by every door."""

from .command import Command
from .context import CancelToken, Context
from .registry import REGISTRY, Registry, command

__all__ = ["CancelToken", "Command", "Context", "REGISTRY", "Registry", "command"]
