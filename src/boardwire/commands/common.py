"""Argument pieces shared by many commands, and unit conversions at the boundary.

Commands take millimetres and degrees (KiCad's axes: x right, y down) and convert to
integer nanometres for the documents. An argument naming a file or folder says by its
type what the command does with it (`boardwire.registry.roles`, re-exported here):
`DocPath` (a document read), `EditPath` (the document changed), `OutputPath` (written),
`InputPath` (a plain file read), or a `Role` of its own; a flag that throws work away
carries `Destroys`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, ClassVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ..documents.board.tables import bounded_net_name
from ..documents.units import mm, nm
from ..errors import InvalidArgs
from ..registry.roles import (  # noqa: F401  (re-exported for the command modules)
    EDIT,
    INPUT,
    READ,
    WRITE,
    BoardPath,
    Destroys,
    DocPath,
    EditPath,
    InputPath,
    OutputPath,
    Role,
    SchematicPath,
)

# KiCad stores coordinates as 32-bit nanometres: +-2147.48 mm is the whole world.
LIMIT_MM = 2147.0
Coord = Annotated[float, Field(ge=-LIMIT_MM, le=LIMIT_MM)]
Point = Annotated[list[Coord], Field(min_length=2, max_length=2, description="[x, y] mm")]
Size = Annotated[float, Field(gt=0, le=1000, description="mm")]
Angle = Annotated[float, Field(ge=-3600, le=3600, description="degrees")]
Name = Annotated[str, Field(min_length=1, max_length=1000)]
# A net name: at most MAX_NET_NAME characters, checked without a schema keyword (the
# default tool list is near its token budget); docs/commands.md says so.
NetName = Annotated[str, AfterValidator(bounded_net_name)]


class Args(BaseModel):
    """Base of every argument model: unknown keys are an error, types are not coerced
    ("1" is not 1, true is not 1), NaN and infinity are refused."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, defer_build=True)


class DocArgs(Args):
    path: DocPath = Field(min_length=1, max_length=4096,
                          description="Document path relative to the working directory")


class ChangeArgs(DocArgs):  # a document the call changes (session.undo, redo, revert; every edit)
    path: EditPath = Field(min_length=1, max_length=4096,
                           description="Document path relative to the working directory")


class EditArgs(ChangeArgs):
    revision: int | None = Field(None, description="Fail with stale-revision unless the document is at this revision")


class Result(BaseModel):
    """The base of every result: ``summary``, and any other key (the generic result, for
    the commands whose result is open: job.wait). Typed results derive from
    `results.Typed`, which names every key; ``open_keys`` says whether keys a model does
    not name are expected (`registry.check_result`)."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    open_keys: ClassVar[bool] = True
    summary: str = Field(description="One line saying what happened")


def unsaved_note(ctx, path: str, result: dict) -> dict:
    """``result`` of a check or an export that judged document ``path`` as it is in
    memory, with ``unsaved`` (`Session.unsaved_with`: the documents that differ from
    their files on disk) and a sentence in its summary naming them, when there are any."""
    unsaved = ctx.session.unsaved_with(path)
    if unsaved:
        result["unsaved"] = unsaved
        result["summary"] = (f"{result.get('summary', '')}; judged in memory: {', '.join(unsaved)} "
                             "differ from the files on disk (session.save writes them)")
    return result


def errors_counted(result: dict) -> bool:
    """A check's result found errors: ``counts.errors`` (KiCad's error severity over
    every finding) is not 0 (`Command.finds_errors` of check.drc and check.erc)."""
    return result.get("counts", {}).get("errors", 0) > 0


def not_empty(values, loc: str, instead: str) -> None:
    """Refuse an empty list given for a selection (leaving it out selects everything, so
    an empty one would do the opposite of what was asked): InvalidArgs at ``loc``."""
    if values is not None and not values:
        raise InvalidArgs(f"{loc} is empty; leave it out {instead}",
                          errors=[{"loc": loc, "msg": "empty list", "type": "value"}])


def pt(p: list[float]) -> tuple[int, int]:
    return nm(p[0]), nm(p[1])


def mm_pt(p: tuple[int, int] | None) -> list[float] | None:
    return None if p is None else [mm(p[0]), mm(p[1])]


def project_dir(ctx, project: str | None) -> Path:
    """The folder whose library tables apply: ``project`` (a folder, or a file in it),
    default the working directory; `path-outside-workspace` for one outside it."""
    ws = ctx.session.workspace
    if project is None:
        return ws.root
    full = ws.resolve(project)
    return full if full.is_dir() else full.parent
