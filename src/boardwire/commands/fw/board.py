"""fw.* on the board: devices, board info, flash, erase, reset and run (build, flash,
watch the boot log). Board calls are checked against the ``[agent]`` policy and take
the board's lease in the caller's name (`fw_common`)."""

from __future__ import annotations

import time

from pydantic import Field

from ...firmware import build as fwbuild
from ...firmware import devices, esp
from ...firmware.leases import hub
from ...firmware.monitor import session as monitors
from ...registry import Context, command
from ..common import Args, OutputPath
from .common import (BoardArgs, MonitorPatterns, ProjectFolder, leased, open_session, project_of, read_session,
                     run_build, target)
from .results import BoardInfo, Devices, Erased, Flashed, Ran, Reset


@command("fw.devices", kind="session", args=Args, result=Devices, idempotent=True)
def devices_cmd(ctx: Context, a: Args) -> dict:
    """Attached boards, untouched: ports with USB ids, board id (MAC) once read, monitor sessions, lease holders."""
    ports = devices.serial_ports()
    known = devices.known()
    listing = hub().listing()
    leases = {x["board"]: x for x in listing.get("leases", [])}
    mons: dict[str, list] = {}
    for m in listing.get("monitors", []):
        mons.setdefault(m["board"], []).append({"session": m["session"], "holder": m["holder"]})
    names = [p["port"] for p in ports] + [p for p in {*known, *leases, *mons} if p not in {q["port"] for q in ports}]
    rows = []
    for name in names:
        row = next((dict(p) for p in ports if p["port"] == name), {"port": name})
        if known.get(name, {}).get("id"):
            row.update(board_id=known[name]["id"], chip=known[name].get("chip"))
        if name in leases:
            row["lease"] = {"holder": leases[name]["holder"], "since": leases[name]["since"]}
        if name in mons:
            row["monitors"] = mons[name]
        rows.append(row)
    return {"summary": f"{len(rows)} board{'s' if len(rows) != 1 else ''}"
                       + (": " + ", ".join(r["port"] + (f" ({r['board_id']})" if r.get("board_id") else "")
                                           + (f" leased to {r['lease']['holder']}" if r.get("lease") else "")
                                           for r in rows) if rows else " attached"),
            "devices": rows}


class InfoArgs(BoardArgs):
    stub: bool = Field(True, description="Use esptool's flasher stub")


@command("fw.boardInfo", kind="session", args=InfoArgs, result=BoardInfo, long=True,
         examples=({"port": "/dev/ttyUSB0"},))
def board_info(ctx: Context, a: InfoArgs) -> dict:
    """Chip, revision, crystal, flash size and MAC (the board id) through esptool; resets the board."""
    project = project_of(ctx, a.dir)
    port = target(ctx, project, a.port, None)
    with leased(ctx, port):
        info = esp.board_info(port, baud=project.board.baud, stub=a.stub)
    devices.remember(port, info)
    info["board_id"] = info["mac"]
    info["summary"] = (f"{info['description']} on {port}: crystal {info['crystal_mhz']} MHz, "
                       f"flash {info.get('flash_size') or '?'}, MAC {info['mac']}")
    return info


class FlashArgs(BoardArgs):
    dir: OutputPath = ProjectFolder  # built into, unless build is false
    build: bool = Field(True, description="Build first")
    erase_all: bool = Field(False, description="Erase all first (policy: erase)")
    no_stub: bool = Field(False, description="ROM bootloader only")


def _flash(ctx: Context, project, port: str, a) -> tuple[dict, dict | None]:
    built = run_build(ctx, project) if a.build else None
    art = project.artifacts()
    if not a.build:
        fwbuild.check_fits(fwbuild.BuildResult(True, [], [], art))
    missing = [p.name for _, p in art.flash if not p.is_file()]
    if not art.flash or missing:
        from ...errors import BuildFailed
        raise BuildFailed(f"nothing to flash: {', '.join(missing) or 'no image configured'}",
                          hint="Build the project (fw.build) or set [firmware] image in boardwire.toml.")
    with leased(ctx, port) as session:
        before = session.next_seq if session is not None else None
        ctx.progress(0.9, f"flashing {port}")
        out = esp.flash(port, art.flash, baud=project.board.baud, stub=not a.no_stub, erase_all=a.erase_all,
                        progress=lambda f, m: ctx.progress(0.9 + 0.09 * f, m))
    if session is not None and before is not None and not esp.is_virtual(port):  # a reset board boots
        out["boot"] = _await_boot(session, before)
    return out, built


def _await_boot(session, before: int, wait_s: float = 3.0) -> dict | None:
    """The boot that followed a flash or reset, if it came within ``wait_s``."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        boots = [b for b in session.tracker.boots[1:] if b.seq >= before]
        if boots and boots[-1].reason:
            return boots[-1].to_dict()
        time.sleep(0.1)
    return None


@command("fw.flash", kind="session", args=FlashArgs, result=Flashed, long=True, destructive=True,
         examples=({"dir": "blinky"},))
def flash(ctx: Context, a: FlashArgs) -> dict:
    """Build, check the image fits, flash with esptool (verified), reset. Policy: by default only the project's bound board."""
    project = project_of(ctx, a.dir)
    port = target(ctx, project, a.port, "erase" if a.erase_all else "flash")
    out, built = _flash(ctx, project, port, a)
    if built:
        out["build"] = {k: built[k] for k in ("summary", "size", "diagnostics") if k in built}
    total = sum(w["bytes"] for w in out["written"])
    out["summary"] = (f"flashed {total} bytes to {out['chip']} on {port} ("
                      + ", ".join(f"{w['file']} at {w['offset']}" for w in out["written"]) + ")"
                      + (f"; booted: {out['boot']['cause']}" if out.get("boot") else ""))
    ctx.progress(1.0, "done")
    return out


@command("fw.erase", kind="session", args=BoardArgs, result=Erased, long=True, destructive=True)
def erase(ctx: Context, a: BoardArgs) -> dict:
    """Erase the whole flash. Needs [agent] erase = true."""
    project = project_of(ctx, a.dir)
    port = target(ctx, project, a.port, "erase")
    with leased(ctx, port):
        out = esp.erase(port, baud=project.board.baud, progress=lambda f, m: ctx.progress(f, m))
    out["summary"] = f"erased the flash of {out['chip']} on {port}"
    return out


@command("fw.reset", kind="session", args=BoardArgs, result=Reset)
def reset(ctx: Context, a: BoardArgs) -> dict:
    """Reset the board (RTS); with a monitor open, name the new boot's reason."""
    project = project_of(ctx, a.dir)
    port = target(ctx, project, a.port, "reset")
    with hub().lease(port, ctx.actor):
        session = monitors.on_port(port)
        if session is not None:
            before = session.next_seq
            did = session.source.reset()
            out = {"port": port, "reset": did}
            if did:
                out["boot"] = _await_boot(session, before)
        else:
            out = esp.hard_reset(port)
    out["summary"] = (f"reset {port}" if out.get("reset") else f"could not reset {port}: {out.get('note', 'no reset line')}") + (
        f"; booted: {out['boot']['cause']}" if out.get("boot") else "")
    return out


class RunArgs(FlashArgs, MonitorPatterns):
    timeout_s: float | None = Field(None, gt=0, le=600,
                                    description="Seconds to watch (30 with patterns, else 5)")
    record: OutputPath | None = Field(None, min_length=1, max_length=4096,
                                      description="Record to this file")


@command("fw.run", kind="session", args=RunArgs, result=Ran, long=True, destructive=True,
         examples=({"dir": "blinky", "until": "blink 3"}, {"dir": "blinky", "expect": ["started", "blink 1"],
                                                            "reject": ["Guru Meditation"]}))
def run(ctx: Context, a: RunArgs) -> dict:
    """Build, flash, open a monitor and watch until a pattern (until; expect in order; reject fails); the session stays open."""
    project = project_of(ctx, a.dir)
    port = target(ctx, project, a.port, "erase" if a.erase_all else "run")
    flashed, built = _flash(ctx, project, port, a)
    session = monitors.on_port(port)
    if session is None:
        session = open_session(ctx, project, port, project.board.baud or 115200, reset=True, record=a.record)
        since = session.first_seq
    else:
        since = session.tracker.boots[-1].seq
    patterns = bool(a.until or a.expect or a.reject)
    wait = a.timeout_s or (30.0 if patterns else 5.0)
    out = read_session(session, a, cursor=since, wait_s=wait)
    out["flash"] = {k: flashed[k] for k in ("chip", "written") if k in flashed}
    if built:
        out["build"] = {k: built[k] for k in ("summary", "size") if k in built}
    out["summary"] = f"flashed {port}, session {session.id}: {out['summary']}"
    return out
