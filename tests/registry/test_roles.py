"""Argument roles (boardwire.registry.roles): every argument that names a file or folder
says by its type what the command does with it, and the registry, the policy, the
edit-feedback hook, the audit log and the MCP completions read them from there (an
argument of any name, nested or in a list)."""

from __future__ import annotations

import re
import shutil
import types
from typing import Annotated, Union, get_args, get_origin

import mcp_types
import pytest
from pydantic import BaseModel, Field

from boardwire.commands import REGISTRY
from boardwire.commands.common import Args, DocPath, EditPath, InputPath, OutputPath, Result
from boardwire.errors import PolicyDenied, StaleRevision
from boardwire.registry import Context, Registry, command, roles
from boardwire.services.feedback import before_edit
from boardwire.session import Session, audit
from tests.inputs import DEMOS, need

BOARD = "b.kicad_pcb"

# Strings that read like paths but name no file: where a description says "path".
NOT_FILES = {
    "Sheet instance path": "a path in the sheet hierarchy (/amp_left/), not a file",
    "Port, URL or board id": "a serial port or board, not a workspace file",
    "Bound port": "a serial port, not a workspace file",
}
PATHLIKE_TEXT = re.compile(r"\b(file|folder|directory|path|document|recording)\b|\.kicad_|\.(dsn|ses)\b", re.I)
PATHLIKE_VALUE = re.compile(r"/|\.(kicad_\w+|json|jsonl|csv|sqlite3|dsn|ses|png|svg|zip)$")


def _strings(annotation) -> bool:
    """Whether the type takes a string (alone, optional, or as list items)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _strings(get_args(annotation)[0])
    if origin in (Union, types.UnionType, list, tuple, set):
        return any(_strings(a) for a in get_args(annotation))
    return annotation is str


def _models(annotation):
    origin = get_origin(annotation)
    if origin is not None:
        for a in get_args(annotation):
            yield from _models(a)
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation


def _string_fields(model, loc=(), seen=()):
    """(location, field) of every string field of ``model`` and of its nested models."""
    for name, f in model.model_fields.items():
        if _strings(f.annotation):
            yield loc + (name,), f
        for inner in _models(f.annotation):
            if inner not in seen:
                yield from _string_fields(inner, loc + (name, "*"), seen + (model,))


def _names_a_file(cmd, loc, field) -> bool:
    text = field.description or ""
    if any(text.startswith(k) for k in NOT_FILES):
        return False
    examples = [ex.get(loc[0]) for ex in cmd.examples] if len(loc) == 1 else []
    return bool(PATHLIKE_TEXT.search(text)) or any(isinstance(v, str) and PATHLIKE_VALUE.search(v) for v in examples)


def role_table() -> dict[str, dict[str, str]]:
    """Every command's argument roles, from the types: {command: {argument: role}}."""
    return {c.id: roles.table(c.args) for c in REGISTRY.all()}


def test_every_argument_naming_a_file_or_folder_has_a_role():
    """A new command cannot forget: a string argument whose description or examples
    name a file or folder must carry a role (or be listed in NOT_FILES with why)."""
    table = role_table()
    missing = []
    for c in REGISTRY.all():
        for loc, field in _string_fields(c.args):
            name = ".".join(loc)
            if _names_a_file(c, loc, field) and name not in table[c.id]:
                missing.append(f"{c.id}.{name}: {field.description!r}")
    assert missing == [], "arguments naming files without a role (registry/roles.py):\n" + "\n".join(missing)
    # the heuristic finds what it must: each role-less path argument of the old name lists
    found = {(c.id, ".".join(loc)) for c in REGISTRY.all() for loc, f in _string_fields(c.args) if _names_a_file(c, loc, f)}
    assert {("pcb.move", "path"), ("fab.gerbers", "output"), ("design.build", "out"), ("parts.import", "file"),
            ("fw.monitor.start", "record"), ("pcb.importSes", "session"), ("sch.addSheet", "file")} <= found


def test_the_table_of_roles():
    """The roles the commands declare (the ones the policy's old name lists missed or
    guessed wrong included), and their well-formedness: every edit names the one
    document it changes, no query or check writes, a role's reference names a field."""
    table = role_table()
    assert table["project.new"] == {"folder": "write (default=name)", "library_tables_from": "input"}
    assert table["sch.addSheet"] == {"path": "edit", "file": "write (beside=path)"}
    assert table["project.updatePcb"] == {"schematic": "read", "board": "edit"}
    assert table["project.backAnnotate"] == {"schematic": "edit", "board": "read"}
    assert table["design.rebuild"] == {"version": "input, write (up=2)"}
    assert table["session.close"] == {"path": "read", "discard": "destroys (path)"}
    assert table["session.save"] == {"path": "write", "force": "destroys (path)"}
    assert table["fw.new"] == {"name": "write (within=dir)", "dir": "write", "kicad": "read"}
    assert table["fw.monitor.start"] == {"dir": "input", "replay": "input", "record": "write"}
    assert table["query.nets"] == {"path": "read"} and table["pcb.exportDsn"] == {"path": "read", "output": "write"}
    for c in REGISTRY.all():
        marks = roles.slots(c.args)
        if c.kind == "edit":
            edited = [s for s in marks if len(s.loc) == 1 and getattr(s.mark, "kind", None) == roles.EDIT]
            assert len(edited) == 1 and c.edits == edited[0].loc[0], c.id
        if c.kind in ("query", "check"):
            assert not [s for s in marks if isinstance(s.mark, roles.Role) and s.mark.writes], c.id
        for s in marks:
            refs = [s.mark.of] if isinstance(s.mark, roles.Destroys) else \
                [s.mark.beside, s.mark.within, s.mark.default]
            for ref in filter(None, refs):
                assert len(s.loc) == 1 and ref in c.args.model_fields, (c.id, s.name, ref)


@pytest.mark.parametrize("parent, file", [("proj/top.kicad_sch", "s1.kicad_sch"), ("./proj/top.kicad_sch", "../a.kicad_sch"),
                                          ("proj/top.kicad_sch", "sub/../b/c.kicad_sch"), ("top.kicad_sch", "x.kicad_sch")])
def test_roles_resolve_paths_as_the_commands_do(tmp_path, parent, file):
    """The resolutions a role may ask for give what the command itself computes: a
    child sheet beside its parent (`sheet_file_key`), fw.new's dir/name, project.new's
    folder from its name, design.rebuild's builds folder."""
    import os
    import posixpath

    from boardwire.netlist.hierarchy import sheet_file_key

    ws = Session(tmp_path).workspace

    def written(cid, raw):
        return [n.path for n in roles.named(REGISTRY.validate(REGISTRY.get(cid), raw), ws) if n.role.writes]

    sheet = {"path": parent, "name": "s", "file": file, "at": [0, 0]}
    key = sheet_file_key(ws.relative(ws.resolve(parent)), file)
    assert written("sch.addSheet", sheet) == [ws.relative(ws.resolve(parent)), key]
    assert written("fw.new", {"name": "blinky", "dir": "fw/boards"}) == [
        ws.relative(ws.resolve(os.path.join("fw/boards", "blinky"))), "fw/boards"]
    assert written("project.new", {"name": "pp"}) == ["pp"]
    assert written("project.new", {"name": "pp", "folder": "."}) == ["."]
    version = "builds/blinker/v001/"
    assert written("design.rebuild", {"version": version}) == [
        posixpath.dirname(posixpath.dirname(version.rstrip("/"))) or "."]


def test_roles_cost_the_tool_list_nothing():
    """A role is type metadata, not JSON Schema: the schema of a role-typed field is
    the plain string's."""
    class Plain(Args):
        p: str = Field(min_length=1, description="x")
        q: list[str] | None = None

    class Typed(Args):
        p: OutputPath = Field(min_length=1, description="x")
        q: list[DocPath] | None = None

    assert Typed.model_json_schema()["properties"] == Plain.model_json_schema()["properties"]


# -- readers: a registry of made-up commands with arguments of unusual names -------------

class Dump(Args):
    where_to: OutputPath | None = None
    note: str = ""


class OddArgs(Args):
    wherever: OutputPath
    source: InputPath | None = None
    dumps: list[Dump] = []
    extra: list[OutputPath] = []
    scrap: Annotated[bool, roles.Destroys()] = False


class OddEditArgs(Args):
    pcb_file: EditPath
    other: DocPath | None = None
    revision: int | None = None


class SheetEditArgs(Args):
    sch: EditPath
    board_ref: DocPath
    revision: int | None = None


@pytest.fixture
def odd():
    reg = Registry()
    reg.on_edit(before_edit)

    @command("odd.write", kind="session", args=OddArgs, result=Result, registry=reg)
    def write(ctx, a):
        return {"summary": "wrote nothing really"}

    @command("odd.edit", kind="edit", args=OddEditArgs, result=Result, registry=reg)
    def edit(ctx, a):
        ctx.session.get(a.pcb_file, "board", ctx.actor)
        return {"summary": "edited"}

    @command("odd.sheet", kind="edit", args=SheetEditArgs, result=Result, registry=reg)
    def sheet(ctx, a):
        ctx.session.get(a.sch, "schematic", ctx.actor)
        return {"summary": "edited"}

    return reg


@pytest.fixture
def ws(tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_sch"), tmp_path / "s.kicad_sch")
    return tmp_path


def test_the_policy_checks_what_the_types_say_is_written_whatever_the_name(odd, ws):
    (ws / "boardwire.toml").write_text('[agent]\npaths = ["out/**"]\n')
    ctx = Context(Session(ws), door="mcp")
    odd.call("odd.write", {"wherever": "out/a", "source": "elsewhere/in.csv",  # reading is never checked
                           "dumps": [{"where_to": "out/b"}, {}], "extra": ["out/c"]}, ctx)
    refused = [{"wherever": "elsewhere/a"},
               {"wherever": "out/a", "dumps": [{"where_to": "out/b"}, {"where_to": "elsewhere/b"}]},  # nested, in a list
               {"wherever": "out/a", "extra": ["out/c", "elsewhere/c"]}]
    for raw in refused:
        with pytest.raises(PolicyDenied) as e:
            odd.call("odd.write", raw, ctx)
        assert e.value.data["key"] == "agent.paths" and "elsewhere/" in e.value.message, raw
    with pytest.raises(PolicyDenied) as e:  # a Destroys flag of any name
        odd.call("odd.write", {"wherever": "out/a", "scrap": True}, ctx)
    assert e.value.data["key"] == "agent.destructive"


def test_the_registry_and_the_edit_hook_find_the_edited_document_by_its_role(odd, ws):
    """The revision checked and answered is the EditPath's, whatever its name; the
    feedback hook adds new_violations for the board an edit changes, not for a board
    it only reads."""
    ctx = Context(Session(ws))
    out = odd.call("odd.edit", {"pcb_file": BOARD, "revision": 0}, ctx)
    assert out["revision"] == 0 and out["new_violations"] == []
    with pytest.raises(StaleRevision):
        odd.call("odd.edit", {"pcb_file": BOARD, "revision": 7}, ctx)
    out = odd.call("odd.sheet", {"sch": "s.kicad_sch", "board_ref": BOARD}, ctx)
    assert "new_violations" not in out and out["revision"] == 0


def test_the_audit_log_records_what_a_call_read_and_wrote(odd, ws):
    session = Session(ws)
    odd.call("odd.write", {"wherever": "out/./a", "source": "in/x.csv", "dumps": [{"where_to": "out/b"}]},
             Context(session, door="jsonrpc"))
    with pytest.raises(PolicyDenied):
        odd.call("odd.write", {"wherever": "out/a", "scrap": True}, Context(session, door="mcp"))
    REGISTRY.call("session.batch", {"steps": [
        {"command": "pcb.move", "args": {"path": BOARD, "reference": "C1", "by": [1, 0]}},
        {"command": "query.describe", "args": {"path": "./s.kicad_sch"}}]}, Context(session, door="script"))
    first, refused, batch = audit.read(ws)
    assert (first["read"], first["wrote"]) == (["in/x.csv"], ["out/a", "out/b"])
    assert refused["error"] == "policy-denied" and "wrote" not in refused  # a failed call wrote nothing
    assert batch["command"] == "session.batch" and (batch["read"], batch["wrote"]) == (["s.kicad_sch"], [BOARD])


def test_completions_offer_the_documents_the_roles_take(ws):
    """A prompt's board argument takes what the commands' board arguments take (a
    .kicad_pcb), a resource template's {path} what its view commands' path takes."""
    from boardwire.protocols.mcp.completions import complete

    (ws / "p.kicad_pro").write_text("{}")
    session = Session(ws)

    def values(ref, name):
        return complete(session, ref, mcp_types.CompletionArgument(name=name, value="")).values

    assert values(mcp_types.PromptReference(type="ref/prompt", name="fix-drc"), "board") == [BOARD]
    nets = mcp_types.ResourceTemplateReference(type="ref/resource", uri="boardwire://doc/{path}/nets")
    assert values(nets, "path") == [BOARD, "s.kicad_sch"]
    assert values(mcp_types.PromptReference(type="ref/prompt", name="design-pipeline"), "goal") == []
