"""The session: open documents, per-command revisions, undo/redo, events (C2)."""

from .session import Event, OpenDocument, Session
from .workspace import Workspace

__all__ = ["Event", "OpenDocument", "Session", "Workspace"]
