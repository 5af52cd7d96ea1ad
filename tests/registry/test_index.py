"""The command index (commands/index.py): it names, for every command the modules
really declare, the module that declares it, and a call by id imports that module
alone (issue 37: a call pays only for what it runs)."""

from __future__ import annotations

import json
import subprocess
import sys

from boardwire.commands import MODULES
from boardwire.commands.index import MODULE_OF
from boardwire.commands.index_gen import render


def test_the_index_is_what_the_modules_declare():
    with open(sys.modules["boardwire.commands.index"].__file__, encoding="utf-8") as f:
        assert f.read() == render(), \
            "stale: python -m boardwire.commands.index_gen > src/boardwire/commands/index.py"
    assert set(MODULES) == set(MODULE_OF.values())


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\n"
                          "print(json.dumps(sorted(m for m in sys.modules if m.startswith('boardwire.'))))"],
                         capture_output=True, text=True, check=True, timeout=120)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_a_lookup_by_id_imports_its_module_alone():
    loaded = _modules_after("from boardwire.commands import REGISTRY\nREGISTRY.get('query.describe')")
    families = {m.removeprefix("boardwire.commands.") for m in loaded} & set(MODULES)
    assert families == {"query.board"}
    assert "boardwire.layout.route.engine" not in loaded and "boardwire.firmware.build" not in loaded


def test_an_unknown_id_still_suggests_from_every_command():
    code = ("from boardwire.commands import REGISTRY\nfrom boardwire.errors import UnknownCommand\n"
            "try:\n    REGISTRY.get('board.autoroute')\nexcept UnknownCommand as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert "did you mean pcb.autoroute?" in out.stdout
    loaded = _modules_after("from boardwire.commands import REGISTRY\nREGISTRY.all()")
    assert set(MODULES) <= {m.removeprefix("boardwire.commands.") for m in loaded}
