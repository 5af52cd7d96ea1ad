"""Argument completion (MCP spec 2025-11-25, "Utilities / Completion"): document
paths for the ``{path}`` of the resource templates and the document arguments of the
prompts (``board``), so a host can offer the workspace's files instead of a blank field.

What an argument takes comes from the roles of the command arguments it stands for
(`boardwire.registry.roles`): a document read or edited, with its suffixes. A resource
template's ``{path}`` is the ``path`` of the commands its view runs (`resources.VIEWS`:
boards and schematics); a prompt's argument is handed to the commands' arguments of
its name (a ``board`` is what design.verdict's and project.updatePcb's ``board`` take:
a ``.kicad_pcb``). Open documents come first, then files found under the working
directory (hidden folders skipped, the walk bounded so a huge folder cannot stall the
server)."""

from __future__ import annotations

import os

import mcp_types as types

from ...commands import REGISTRY
from ...registry import roles
from .prompts import PROMPTS
from .resources import PREFIX, VIEWS

MAX_VALUES = 100  # the spec's limit per response
MAX_FILES = 20_000  # files looked at per request, at most
DOCUMENT_ROLES = (roles.READ, roles.EDIT)


def _commands(ref, name: str) -> list[str]:
    """The ids of the commands whose argument ``name`` the argument ``name`` of
    ``ref`` is handed to."""
    if isinstance(ref, types.ResourceTemplateReference):
        template = str(ref.uri)
        if not template.startswith(f"{PREFIX}{{{name}}}/"):
            return []
        view = template[len(f"{PREFIX}{{{name}}}/"):]
        return [spec[0] for views in VIEWS.values() for v, spec in views.items() if v == view]
    if isinstance(ref, types.PromptReference) and ref.name in PROMPTS:
        if name in {a.name for a in PROMPTS[ref.name][1]}:
            return [c.id for c in REGISTRY.all()]
    return []


def suffixes(ref, name: str) -> tuple[str, ...]:
    """The file suffixes of the documents argument ``name`` of ``ref`` takes, from
    the roles of the command arguments it is handed to (empty: not a document)."""
    out: dict[str, None] = {}
    for cid in _commands(ref, name):
        for slot in roles.slots(REGISTRY.get(cid).args):
            role = slot.mark
            if slot.loc == (name,) and isinstance(role, roles.Role) and role.kind in DOCUMENT_ROLES:
                out.update(dict.fromkeys(role.suffixes))
    return tuple(out)


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
    kinds = suffixes(ref, argument.name)
    if not kinds:
        return types.Completion(values=[])
    typed = argument.value.lower()
    found: list[str] = []
    for path in [*sorted(session.documents), *_files(session.workspace.root, kinds)]:
        name = path.lower()
        if (path.endswith(kinds) and path not in found
                and (name.startswith(typed) or name.rsplit("/", 1)[-1].startswith(typed))):
            found.append(path)
    return types.Completion(values=found[:MAX_VALUES], total=len(found), has_more=len(found) > MAX_VALUES)
