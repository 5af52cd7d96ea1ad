"""Result models (commands/results.py and each scope's results.py): every command's
output schema is a JSON Schema object, commands with a stable result have a typed
model, and the check the whole suite runs (``BOARDWIRE_CHECK_RESULTS``, set in
tests/conftest.py) refuses a result its model does not describe, on real calls."""

from __future__ import annotations

import copy
import shutil

import jsonschema
import pytest
from pydantic import BaseModel

from boardwire.commands import REGISTRY
from boardwire.commands.common import Args, Result
from boardwire.errors import Internal
from boardwire.registry import Context
from boardwire.registry import registry as registry_module
from boardwire.registry.registry import Registry, check_result, command
from boardwire.session import Session
from tests.inputs import DEMOS, need, need_corpus

# The commands whose result is open, each with why. Every other command has a typed model.
GENERIC = {
    "job.wait": "the long call's own result (any command's), or the job's handle while it runs",
}


def test_every_output_schema_is_a_json_schema_object():
    for cmd in REGISTRY.all():
        schema = cmd.output_schema()
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object", cmd.id
        assert schema["properties"]["summary"]["type"] == "string" and "summary" in schema["required"], cmd.id


def test_commands_with_a_stable_result_have_a_typed_model():
    generic = {c.id for c in REGISTRY.all() if c.result is Result}
    assert generic == set(GENERIC)
    for cmd in REGISTRY.all():
        assert issubclass(cmd.result, Result), cmd.id
        if cmd.id not in GENERIC:
            assert not cmd.result.open_keys, cmd.id  # every key it may hold is named


def test_edit_results_name_what_the_registry_and_the_edit_hook_add():
    for cmd in REGISTRY.all():
        if cmd.kind == "edit":
            assert {"revision", "new_ids", "new_violations", "live"} <= set(cmd.result.model_fields), cmd.id


def test_the_suite_checks_every_result():
    """tests/conftest.py sets BOARDWIRE_CHECK_RESULTS before boardwire is imported."""
    assert registry_module.CHECK_RESULTS


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    d = tmp_path_factory.mktemp("video")
    shutil.copy(need(DEMOS / "video" / "video.kicad_pcb"), d)
    return Session(d)


CALLS = [
    ("query.items", {"path": "video.kicad_pcb", "limit": 300}),
    ("query.nets", {"path": "video.kicad_pcb", "limit": 1000}),
    ("query.pads", {"path": "video.kicad_pcb", "reference": "U1"}),
    ("query.footprint", {"path": "video.kicad_pcb", "reference": "U1"}),
    ("query.describe", {"path": "video.kicad_pcb"}),
    ("query.unrouted", {"path": "video.kicad_pcb"}),
    ("check.drc", {"path": "video.kicad_pcb", "engine": "builtin", "limit": 50}),
]


@pytest.mark.parametrize("tables", ["json", "table"])
@pytest.mark.parametrize("cid, args", CALLS, ids=[c for c, _ in CALLS])
def test_real_results_validate_against_the_output_schema(video, cid, args, tables):
    """The JSON Schema a client reads (not only the pydantic model) accepts real
    results, with row lists as rows and as line tables."""
    cmd = REGISTRY.get(cid)
    out = REGISTRY.call(cid, args, Context(video, tables=tables))
    jsonschema.validate(out, cmd.output_schema())
    check_result(cmd, out)
    if cmd.tables and tables == "table":
        assert any(isinstance(out.get(t), str) for t in cmd.tables)


def test_commands_no_other_test_calls_return_what_their_models_say(tmp_path):
    """The commands the rest of the suite never calls through the registry, called on
    real inputs: each result passes the check (as every call in the suite does)."""
    shutil.copy(need(DEMOS / "stickhub" / "StickHub.kicad_pcb"), tmp_path)
    qa = need_corpus() / "KiCad__kicad-source-mirror" / "qa" / "data" / "pcbnew"
    for suffix in (".kicad_pcb", ".kicad_dru"):
        shutil.copy(need(qa / f"issue22536{suffix}"), tmp_path)
    ctx = Context(Session(tmp_path))
    results = {}

    def call(cid, args):
        results[cid] = out = REGISTRY.call(cid, args, ctx)
        check_result(REGISTRY.get(cid), out)
        return out

    pairs = call("query.diffPairs", {"path": "StickHub.kicad_pcb"})["pairs"]
    assert {"positive": "/D+", "negative": "/D-"}.items() <= pairs[0].items()
    [group] = call("query.lengthGroups", {"path": "issue22536.kicad_pcb"})["groups"]
    assert group["rule"] == "length_matching" and group["constraints"]["length"]["min"] == "2997mil"
    call("pcb.addVia", {"path": "StickHub.kicad_pcb", "at": [100, 100], "size": 0.6, "drill": 0.3})
    call("session.undo", {"path": "StickHub.kicad_pcb"})
    assert call("session.redo", {"path": "StickHub.kicad_pcb"})["revision"] == 1
    assert call("session.describe", {})["commands"]["pcb"] > 10
    assert "components" in call("design.brief", {})["schema"]["properties"]
    assert any(t["tool"] == "esptool" for t in call("fw.doctor", {})["tools"])


def _mismatch(cid: str, out: dict, change) -> str:
    bad = copy.deepcopy(out)
    change(bad)
    with pytest.raises(Internal) as e:
        check_result(REGISTRY.get(cid), bad)
    assert e.value.message.startswith(cid + ": ")
    return e.value.message


def test_the_check_refuses_what_the_model_does_not_describe(video):
    out = REGISTRY.call("query.nets", {"path": "video.kicad_pcb"}, Context(video))
    check_result(REGISTRY.get("query.nets"), out)
    row = out["nets"][0]
    said = _mismatch("query.nets", out, lambda r: r["nets"][0].update(pads=str(row["pads"])))
    assert ".0.pads: Input should be a valid integer" in said  # "1" is not 1
    assert "at total: Field required" in _mismatch("query.nets", out, lambda r: r.pop("total"))
    assert "nets.0.length" in _mismatch("query.nets", out, lambda r: r["nets"][0].update(length=1.0))
    assert "colour" in _mismatch("query.nets", out, lambda r: r.update(colour="red"))
    assert "not JSON" in _mismatch("query.nets", out, lambda r: r.update(total=float("nan")))


def test_the_registry_checks_each_result_it_returns(video, monkeypatch):
    """A command whose handler returns a key its model does not type fails the call
    with internal, naming the command (and passes once the result is right)."""

    class Counted(Result):
        open_keys = False
        count: int

    reg = Registry()

    @command("test.count", kind="query", args=Args, result=Counted, registry=reg)
    def count(ctx, a):
        return {"summary": "three", "count": "3"}  # a string where the model says int

    monkeypatch.setattr(registry_module, "CHECK_RESULTS", True)
    with pytest.raises(Internal, match=r"test\.count: .*count"):
        reg.call("test.count", {}, Context(video))
    monkeypatch.setattr(registry_module, "CHECK_RESULTS", False)
    assert reg.call("test.count", {}, Context(video))["count"] == "3"


def test_generic_result_takes_any_key():
    assert issubclass(Result, BaseModel) and Result.open_keys
    check_result(REGISTRY.get("job.wait"), {"summary": "done", "anything": [1, {"x": None}]})


def test_the_api_stubs_return_each_command_s_result_keys():
    """Each script function's stub returns its command's result as a TypedDict whose
    keys are the output schema's properties, NotRequired exactly where the schema does
    not require them (the open job.wait returns a plain dict)."""
    import ast
    from pathlib import Path

    from boardwire.api.names import plan
    from boardwire.api.stubs import class_name

    tree = ast.parse((Path(__file__).parents[2] / "src" / "boardwire" / "api" / "__init__.pyi").read_text())
    typed: dict[str, dict[str, bool]] = {}  # TypedDict -> key -> required
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(getattr(b, "id", "") == "TypedDict" for b in node.bases):
            typed[node.name] = {f.target.id: "NotRequired" not in ast.unparse(f.annotation)
                                for f in node.body if isinstance(f, ast.AnnAssign)}
        elif isinstance(node, ast.Assign) and ast.unparse(node.value).startswith("TypedDict("):
            fields = node.value.args[1]
            typed[node.targets[0].id] = {k.value: "NotRequired" not in ast.unparse(v)
                                         for k, v in zip(fields.keys, fields.values)}
    methods = {(n.name, f.name): ast.unparse(f.returns) for n in tree.body if isinstance(n, ast.ClassDef)
               for f in n.body if isinstance(f, ast.FunctionDef)}
    for entry in plan([c.id for c in REGISTRY.all()]):
        cmd = REGISTRY.get(entry.command)
        returns = methods[(class_name(entry.namespace), entry.name)]
        if cmd.id in GENERIC:
            assert returns == "dict[str, Any]"
            continue
        schema = cmd.output_schema()
        required = set(schema["required"])
        assert typed[returns] == {k: k in required for k in schema["properties"]}, cmd.id
