"""``boardwire mcp install`` on a temporary HOME: merges into an existing entry,
writes through a symlinked config, keeps non-ASCII text, refuses a config with
comments (showing the entry to add, also with --print), puts VS Code's file under
--root, and runs the client's own ``mcp add`` when it is on PATH (issue 17, item 4)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from boardwire.protocols.mcp.install import NotPlainJson, install


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.setenv("APPDATA", str(h))
    return h


def test_merges_into_an_existing_entry_and_keeps_other_keys(home, tmp_path):
    cfg = tmp_path / "claude_desktop_config.json"
    cfg.write_text(json.dumps({"theme": "dark", "mcpServers": {
        "other": {"command": "x"},
        "boardwire": {"command": "old", "args": [], "env": {"KICAD9_SYMBOL_DIR": "/opt/sym"}, "disabled": True}},
        "note": "Grüße, µ ≤ 10 kΩ"}, ensure_ascii=False), encoding="utf-8")
    os.chmod(cfg, 0o640)
    preview = install("claude-desktop", root=str(tmp_path), print_only=True, config=str(cfg))
    assert "would write" in preview and '"old"' in cfg.read_text()
    install("claude-desktop", root=str(tmp_path), config=str(cfg))
    data = json.loads(cfg.read_text(encoding="utf-8"))
    entry = data["mcpServers"]["boardwire"]
    assert entry["env"] == {"KICAD9_SYMBOL_DIR": "/opt/sym"} and entry["disabled"] is True
    assert entry["command"] != "old" and entry["args"][-3:] == ["mcp", "--root", str(tmp_path.resolve())]
    assert data["theme"] == "dark" and data["mcpServers"]["other"] == {"command": "x"}
    assert "Grüße, µ ≤ 10 kΩ" in cfg.read_text(encoding="utf-8")  # as written, not \\u escapes
    assert cfg.stat().st_mode & 0o777 == 0o640


def test_writes_through_a_symlinked_config(home, tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "mcp.json"
    real.write_text('{"mcpServers": {}}')
    link = home / ".cursor" / "mcp.json"
    link.parent.mkdir()
    link.symlink_to(real)
    out = install("cursor", root=str(tmp_path))
    assert link.is_symlink() and os.readlink(link) == str(real) and "through the link" in out
    assert "boardwire" in json.loads(real.read_text())["mcpServers"]


def test_a_config_with_comments_is_refused_and_the_entry_shown(home, tmp_path):
    cfg = home / ".cursor" / "mcp.json"
    cfg.parent.mkdir()
    text = '{\n  // my servers\n  "mcpServers": {},\n}\n'
    cfg.write_text(text)
    for print_only in (False, True):
        with pytest.raises(NotPlainJson) as e:
            install("cursor", root=str(tmp_path), print_only=print_only)
        assert "--print" not in str(e.value) and '"boardwire"' in str(e.value) and "by hand" in str(e.value)
    assert cfg.read_text() == text


def test_vscode_file_goes_under_root(home, tmp_path, monkeypatch):
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(tmp_path)
    install("vscode", root=str(root))
    assert json.loads((root / ".vscode" / "mcp.json").read_text())["servers"]["boardwire"]["type"] == "stdio"
    assert not (tmp_path / ".vscode").exists()


def test_claude_code_runs_its_own_mcp_add_when_on_path(home, tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    out = install("codex", root=str(tmp_path))  # not on PATH: the command to run
    assert out.startswith("codex is not on PATH; run this:\ncodex mcp add boardwire -- ")
    log = tmp_path / "claude.log"
    fake = bin_dir / "claude"
    fake.write_text(f"#!{sys.executable}\nimport sys, json\nopen({str(log)!r}, 'w').write(json.dumps(sys.argv[1:]))\n")
    fake.chmod(0o755)
    out = install("claude-code", root=str(tmp_path))
    assert out.startswith("ran: claude mcp add boardwire -- ")
    argv = json.loads(log.read_text())
    assert argv[:4] == ["mcp", "add", "boardwire", "--"] and argv[-3:] == ["mcp", "--root", str(tmp_path.resolve())]
    assert install("claude-code", root=str(tmp_path), print_only=True).startswith("run this:\nclaude mcp add")


def test_the_cli_says_what_is_wrong(home, tmp_path):
    cfg = tmp_path / "bad.json"
    cfg.write_text("{not json")
    r = subprocess.run([sys.executable, "-m", "boardwire.cli.main", "mcp", "install", "--client", "cursor",
                        "--config", str(cfg)], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "HOME": str(home)})
    assert r.returncode == 11 and "invalid-args" in r.stderr and "not plain JSON" in r.stderr and "--print" not in r.stderr
    assert cfg.read_text() == "{not json"
