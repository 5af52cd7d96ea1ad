"""Argument completion (MCP spec 2025-11-25, "Utilities / Completion"): document
paths for the ``{path}`` of the resource templates and the ``board`` argument of the
prompts, so a host can offer the workspace's files instead of a blank field.

Open documents come first, then files found under the working directory (hidden
folders skipped, the walk bounded so a huge folder cannot stall the server)."""

from __future__ import annotations

import os

import mcp_types as types

from .prompts import PROMPTS
from .resources import PREFIX

MAX_VALUES = 100  # the spec's limit per response
MAX_FILES = 20_000  # files looked at per request, at most
SUFFIXES = {"board": (".kicad_pcb",), "path": (".kicad_pcb", ".kicad_sch")}


def _argument_kinds(ref) -> set[str]:
    """The argument names of ``ref`` that take a document path."""
    if isinstance(ref, types.ResourceTemplateReference):
        return {"path"} if str(ref.uri).startswith(PREFIX) else set()
    if isinstance(ref, types.PromptReference) and ref.name in PROMPTS:
        return {a.name for a in PROMPTS[ref.name][1]} & set(SUFFIXES)
    return set()


def _files(root, suffixes: tuple[str, ...]):
    seen = 0
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(files):
            seen += 1
            if seen > MAX_FILES:
                return
            if f.endswith(suffixes):
                yield os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")


def complete(session, ref, argument: types.CompletionArgument) -> types.Completion:
    """Paths starting with (or whose file name starts with) the typed value."""
    if argument.name not in _argument_kinds(ref):
        return types.Completion(values=[])
    suffixes = SUFFIXES[argument.name]
    typed = argument.value.lower()
    found: list[str] = []
    for path in [*sorted(session.documents), *_files(session.workspace.root, suffixes)]:
        name = path.lower()
        if (path.endswith(suffixes) and path not in found
                and (name.startswith(typed) or name.rsplit("/", 1)[-1].startswith(typed))):
            found.append(path)
    return types.Completion(values=found[:MAX_VALUES], total=len(found), has_more=len(found) > MAX_VALUES)
