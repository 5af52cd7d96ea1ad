"""design.*: a design document (components, nets, board, constraints) briefed, checked,
built stage by stage into a versioned KiCad project, rebuilt, and judged.

The document and its schema are design/document.py; the check design/check.py; the
stages design/pipeline.py (run here through the registry, each stage the command a
caller could run itself); versions design/versions.py; the verdict design/verdict.py.
"""

from __future__ import annotations

import posixpath
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from ..design.check import __doc__ as CHECK_DOC
from ..design.check import check
from ..design.document import Design, Pinned, dumps, schema
from ..design.pipeline import STAGES, Build
from ..design.verdict import judge
from ..design.versions import next_version, now, project_files, read_json, settings, write_json
from ..documents.ids import seeded
from ..errors import DesignErrors, InvalidArgs, NotFound
from ..layout.route.engines import RouteOptions
from ..parts.lines import encode
from ..registry import Context, command
from ..registry.docs import schema_text
from .common import INPUT, WRITE, Args, BoardPath, InputPath, OutputPath, Role, SchematicPath
from .results import Built, DesignBrief, DesignChecked, Rebuilt, VerdictResult

Stage = Literal[STAGES]  # type: ignore[valid-type]


class DesignSource(Args):
    design: dict[str, Any] | None = Field(None, description="The design document (see design.brief)")
    file: InputPath | None = Field(None, max_length=4096, description="Or a design JSON file in the working directory")


def load(ctx: Context, a: DesignSource) -> Design:
    """The validated design of ``a`` (inline or from its file). Errors: invalid-args
    listing each schema violation (loc, msg)."""
    if (a.design is None) == (a.file is None):
        raise InvalidArgs("give design or file", errors=[{"loc": "design", "msg": "exactly one of design, file", "type": "value"}])
    raw = a.design
    if a.file is not None:
        import json

        path = ctx.session.workspace.resolve(a.file)
        if not path.is_file():
            raise NotFound(f"no design file {a.file}",
                           hint="Give the path of a design JSON inside the workspace (schema: docs/design-schema.json), "
                                "or pass the design inline.")
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as e:
            raise InvalidArgs(f"{a.file}: not JSON ({e})") from None
    try:
        return Design.model_validate(raw)
    except ValidationError as e:
        errors = [{"loc": ".".join(str(p) for p in err["loc"]) or "(design)", "msg": err["msg"], "type": err["type"]}
                  for err in e.errors()]
        raise InvalidArgs(f"design: {errors[0]['loc']}: {errors[0]['msg']}" + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""),
                          errors=errors, hint="design.brief gives the schema and an example.") from None


def _sub(ctx: Context):
    from ..registry import REGISTRY

    def call(cid: str, args: dict) -> dict:
        return REGISTRY.call(cid, args, Context(ctx.session, ctx.actor, None, ctx.cancel))

    ids = {c.id for c in REGISTRY.all()}
    return call, ids.__contains__


EXAMPLE = {"name": "blinker", "components": [
    {"ref": "U1", "symbol": "Timer:NE555P"},
    {"ref": "R1", "symbol": "Device:R", "value": "1k", "footprint": "Resistor_SMD:R_0805_2012Metric"},
    {"ref": "C1", "part": "C14663"},
    {"ref": "J1", "symbol": "Connector_Generic:Conn_01x02", "footprint": "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical"}],
    "nets": {"VCC": ["J1.1", "U1.8", "U1.4", "R1.1", "C1.1"], "GND": ["J1.2", "U1.1", "C1.2"]},
    "no_connect": [], "board": {"size": [30, 25]}, "constraints": {"edge": ["J1"]}}


@command("design.brief", kind="query", args=Args, result=DesignBrief, idempotent=True)
def brief(ctx: Context, a: Args) -> dict:
    """What a design document must contain (its JSON Schema), the checks it must pass, the build stages, and an example; write one, then design.check and design.build."""
    doc = schema()
    return {"summary": "design document: components (symbol or catalogue part), nets (REF.PIN lists), board, constraints",
            "text": "The design document's schema (`key?` optional):\n" + schema_text(doc, "Design"),
            "schema": doc, "checks": CHECK_DOC.split("=====================  ", 1)[1] if "=" in (CHECK_DOC or "") else CHECK_DOC,
            "stages": list(STAGES), "rules": "2layer-starter: 0.2 mm clearance and track, 0.6/0.3 mm vias; ERC 0 errors, "
            "DRC 0 errors, 0 unconnected, 0 schematic parity issues for a clean verdict",
            "example": EXAMPLE}


@command("design.check", kind="query", args=DesignSource, result=DesignChecked, idempotent=True,
         finds_errors=lambda r: r.get("ok") is False, examples=({"file": "blinker.json"},))
def check_cmd(ctx: Context, a: DesignSource) -> dict:
    """Validate a design: schema, then each component resolved (catalogue part -> symbol, footprint, LCSC/MPN fields), pins, nets of one pin, unconnected pins, power without a source, footprints that do not fit the symbol. Findings carry code, where, message and fix; components as a table."""
    d = load(ctx, a)
    r = check(d, ctx.session.workspace.root)
    rows = [{"ref": c.ref, "symbol": c.symbol, "footprint": c.footprint, "value": c.value, "lcsc": c.fields.get("LCSC")}
            for c in r.components.values()]
    return {"summary": f"{d.name}: " + ("ok" if not r.errors else f"{len(r.errors)} errors") + f", {len(r.warnings)} warnings; "
                       f"{len(r.components)}/{len(d.components)} components resolved, {len(d.nets)} nets",
            "ok": not r.errors, "errors": r.errors, "warnings": r.warnings,
            "components": encode(["ref", "symbol", "footprint", "value", "lcsc"], rows), "power": sorted(r.power)}


class BuildArgs(DesignSource):
    out: OutputPath = Field("builds", max_length=1000, description="Folder of the version folders (OUT/NAME/vNNN)")
    until: Stage | None = Field(None, description="Stop after this stage")


def _build(ctx: Context, d: Design, out: str, until: str | None, seed: str | None = None,
           created: str | None = None) -> dict:
    root = ctx.session.workspace.root
    report = check(d, root)
    if report.errors:
        first = report.errors[0]
        raise DesignErrors(f"{d.name}: {len(report.errors)} problems, first: {first['message']} ({first['fix']})",
                           errors=report.errors[:50])
    folder = next_version(root, out, d.name)
    seed = seed or folder.rsplit("/", 2)[-2] + "/" + folder.rsplit("/", 1)[-1]
    call, has = _sub(ctx)
    created = created or now()
    where = root / folder

    def record(rows: list[dict]) -> None:
        """What the build has done so far, in its version folder once the project stage
        made it: design.json and settings.json (a rebuild's inputs) and build.json, the
        stage running last; a build killed midway leaves them saying where it was."""
        if where.is_dir():
            if not (where / "design.json").is_file():
                (where / "design.json").write_text(dumps(d), encoding="utf-8")
                write_json(where / "settings.json", settings(seed, until, created))
            write_json(where / "build.json", rows)

    build = Build(d, report, folder, call, has, ctx.progress, until, created, record)
    with seeded(seed):
        stages = build.run()
    where.mkdir(parents=True, exist_ok=True)
    (where / "design.json").write_text(dumps(d), encoding="utf-8")
    write_json(where / "settings.json", settings(seed, until, created))
    write_json(where / "build.json", [s.row() for s in stages])
    verdict = getattr(build, "verdict", None)
    if verdict is not None:
        write_json(where / "verdict.json", verdict)
    failed = next((s for s in stages if s.status == "failed"), None)
    return {"summary": f"{folder}: " + (f"stopped at {failed.name}: {failed.summary}" if failed else
                                         (verdict["summary"] if verdict else f"built to {stages[-1].name}")),
            "version": folder, "schematic": build.sch, "board": build.pcb, "stages": [s.row() for s in stages],
            "verdict": verdict}


def build_found_errors(result: dict) -> bool:
    """A build found errors: a stage failed, or the verdict is not clean (a job's
    handle, answered before the end, has found nothing yet)."""
    return (any(s["status"] == "failed" for s in result.get("stages", ()))
            or (result.get("verdict") or {}).get("clean") is False)


@command("design.build", kind="session", args=BuildArgs, result=Built, long=True, finds_errors=build_found_errors,
         examples=({"file": "blinker.json"}, {"file": "usbc.json", "until": "erc"}))
def build_cmd(ctx: Context, a: BuildArgs) -> dict:
    """Build the board from a design document (parts, nets, board) into a new version folder OUT/NAME/vNNN; stages: project, schematic, erc, update, outline, placement (constraints kept), route, zones (GND on B.Cu), save, drc (with parity), verdict, fab (fab.zip when clean). Errors: design-errors with design.check's errors."""
    return _build(ctx, load(ctx, a), a.out, a.until)


class RebuildArgs(Args):
    # read, and the new version folder is written in its builds folder (two up)
    version: Annotated[str, Role(INPUT), Role(WRITE, up=2)] = Field(
        max_length=4096, description="A version folder, e.g. builds/blinker/v001")
    router: RouteOptions | None = Field(None, description="Changed router settings")
    pinned: dict[str, Pinned] | None = Field(None, description="Changed or added pinned placements")


@command("design.rebuild", kind="session", args=RebuildArgs, result=Rebuilt, long=True, finds_errors=build_found_errors,
         examples=({"version": "builds/blinker/v001"},))
def rebuild(ctx: Context, a: RebuildArgs) -> dict:
    """Build a version again into a new version folder from its design.json and settings.json (same id seed): unchanged, the KiCad project files are byte-identical (identical lists them); router or pinned change what they name."""
    src = ctx.session.workspace.resolve(a.version)
    if not (src / "design.json").is_file():
        raise NotFound(f"{a.version} is not a version folder (no design.json)")
    d = Design.model_validate(read_json(src / "design.json"))
    s = read_json(src / "settings.json")
    if a.router is not None or a.pinned:
        c = d.constraints.model_copy(update={"router": a.router or d.constraints.router,
                                             "pinned": {**d.constraints.pinned, **(a.pinned or {})}})
        d = d.model_copy(update={"constraints": c})
    out = posixpath.dirname(posixpath.dirname(a.version.rstrip("/"))) or "."
    result = _build(ctx, d, out, s.get("until"), seed=s["uuid_seed"], created=s.get("created"))
    before = project_files(src)
    after = project_files(ctx.session.workspace.resolve(result["version"]))
    result["identical"] = sorted(n for n in before if after.get(n) == before[n])
    result["different"] = sorted(n for n in set(before) | set(after) if after.get(n) != before.get(n))
    result["summary"] += f"; {len(result['identical'])} project files identical to {a.version}, {len(result['different'])} different"
    return result


class VerdictArgs(Args):
    board: BoardPath = Field(max_length=4096, description=".kicad_pcb (its .kicad_sch beside it)")
    schematic: SchematicPath | None = Field(None, max_length=4096)


@command("design.verdict", kind="check", args=VerdictArgs, result=VerdictResult, long=True, idempotent=True,
         finds_errors=lambda r: r.get("clean") is False,
         examples=({"board": "builds/blinker/v001/blinker.kicad_pcb"},))
def verdict(ctx: Context, a: VerdictArgs) -> dict:
    """Judge any board as design.build judges its own: ERC and DRC counts (kicad-cli, with parity), unrouted, a rubric (decoupling distances, connectors to the edge, silk findings, schematic text overlaps) and a render (board.png beside the board)."""
    from ..documents.schematic.extent import overlaps, sheet_extents

    sch = a.schematic or a.board[: -len(".kicad_pcb")] + ".kicad_sch"
    call, _ = _sub(ctx)
    doc = ctx.session.get(sch, "schematic", ctx.actor).doc
    return judge(call, a.board, sch, None, None, {}, posixpath.dirname(a.board) or ".",
                 overlaps=len(overlaps(sheet_extents(doc))))
