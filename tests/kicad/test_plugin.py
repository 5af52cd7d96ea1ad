"""``boardwire kicad install-plugin``: the folder KiCad 9 loads IPC plugins from (no
KiCad needed: the manifest, entry point and icon are checked as KiCad reads them)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.inputs import REPO


def test_install_plugin(tmp_path):
    env = {"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path / "data"),
           "HOME": str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "boardwire.cli.main", "kicad", "install-plugin"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    folder = tmp_path / "data" / "kicad" / "9.0" / "plugins" / "org.boardwire.bridge"
    manifest = json.loads((folder / "plugin.json").read_text())
    assert manifest["$schema"] == "https://go.kicad.org/api/schemas/v1"
    assert manifest["runtime"]["type"] == "python"
    (action,) = manifest["actions"]
    assert action["show-button"] is True and action["scopes"] == ["pcb"]
    assert (folder / action["entrypoint"]).is_file()
    compile((folder / action["entrypoint"]).read_text(), "attach.py", "exec")
    assert repr(sys.executable) in (folder / action["entrypoint"]).read_text()
    from PIL import Image

    for icon in action["icons-light"] + action["icons-dark"]:
        with Image.open(folder / icon) as im:
            assert im.size == (24, 24) and im.mode == "RGBA"
    # installing again replaces the folder's files, nothing else
    run = subprocess.run([sys.executable, "-m", "boardwire.cli.main", "kicad", "install-plugin"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and sorted(p.name for p in folder.iterdir()) == ["attach.py", "icon.png", "plugin.json"]
