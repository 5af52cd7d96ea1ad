"""The live attach and the bridge, timed against KiCad 9's real PCB editor.

Starts pcbnew under Xvfb on a copy of KiCad's ecc83 demo (boardwire.kicad.ipc.launch),
then measures (median and max of ``--repeat`` runs, milliseconds, time.perf_counter):

* attach: connect, read KiCad's board, open it in the session;
* a board edit mirrored live: ``pcb.move`` through the registry, the KiCad commit
  included (the edit hook's built-in DRC too), and the same edit on a session that is
  not attached, for comparison;
* the KiCad commit alone (``LiveBoard.push``: diff, one commit), back to back (each
  waits for KiCad to finish redrawing after the previous commit) and after 1 s idle;
* a person's edit reaching the session: a commit by another API client until the
  session's revision moves (the poller runs every 0.1 s here; 0.25 s by default);
* a bridge round trip: ``session.documents`` over a WebSocket on loopback.

Prints a Markdown table (docs/benchmarks.md). Needs Xvfb, pcbnew and kicad-python.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from boardwire import __version__  # noqa: E402
from boardwire.kicad.ipc.editor import Editor  # noqa: E402
from boardwire.kicad.ipc.launch import PcbEditor  # noqa: E402
from boardwire.commands import REGISTRY  # noqa: E402
from boardwire.registry import Context
from boardwire.session import Session  # noqa: E402
from boardwire.session.live import attach  # noqa: E402

BOARD = "ecc83-pp.kicad_pcb"
DEMO = Path("/usr/share/kicad/demos/ecc83")


def ms(samples: list[float]) -> tuple[float, float]:
    return round(statistics.median(samples) * 1000, 2), round(max(samples) * 1000, 2)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    n = ap.parse_args().repeat
    rows: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as d:
        work, home = Path(d) / "work", Path(d) / "home"
        work.mkdir()
        for f in DEMO.glob("ecc83-pp.kicad_p*"):
            shutil.copy(f, work / f.name)
        plain = Session(work)
        t0 = time.perf_counter()
        ed = PcbEditor(work / BOARD, home).start()
        launch = time.perf_counter() - t0
        try:
            from kipy import KiCad
            from kipy.geometry import Vector2

            session = Session(work)
            t0 = time.perf_counter()
            live = attach(session, Editor(str(ed.socket)).connect(), registry=REGISTRY, poll_s=0.1)
            rows["attach"] = [time.perf_counter() - t0]
            ctx = Context(session, actor="bench")
            for i in range(n):
                t0 = time.perf_counter()
                REGISTRY.call("pcb.move", {"path": BOARD, "reference": "R4", "by": [0.1 if i % 2 else -0.1, 0]}, ctx)
                rows.setdefault("pcb.move, attached (KiCad commit included)", []).append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                REGISTRY.call("pcb.move", {"path": BOARD, "reference": "R4", "by": [0.1 if i % 2 else -0.1, 0]},
                              Context(plain, actor="bench"))
                rows.setdefault("pcb.move, not attached", []).append(time.perf_counter() - t0)
            od = session.get(BOARD)
            for i in range(2 * n):
                idle = i >= n
                if idle:
                    time.sleep(1.0)  # KiCad has finished redrawing the previous commit
                with session.lock:  # an edit the listener does not see, then its push alone
                    session._listeners.remove(live._on_event)
                    fp = od.doc.footprint("R3")
                    dx = 100_000 if i % 2 else -100_000
                    session.edit("bench", lambda: fp.move_to((fp.position[0] + dx, fp.position[1])), actor="bench")
                    session._listeners.append(live._on_event)
                    t0 = time.perf_counter()
                    live.push("bench")
                    rows.setdefault("KiCad commit alone (LiveBoard.push), " + (
                        "KiCad idle for 1 s before" if idle else "back to back"), []).append(time.perf_counter() - t0)
            person = KiCad(socket_path=f"ipc://{ed.socket}", kicad_token="", timeout_ms=5000).get_board()
            for i in range(n):
                fp = next(f for f in person.get_footprints() if f.reference_field.text.value == "R2")
                fp.position = Vector2.from_xy(fp.position.x, fp.position.y + (100_000 if i % 2 else -100_000))
                before = od.revision
                t0 = time.perf_counter()
                c = person.begin_commit()
                person.update_items([fp])
                person.push_commit(c, "person")
                while od.revision == before:
                    time.sleep(0.001)
                rows.setdefault("a person's edit in KiCad until the session has it (poll 0.1 s)", []).append(
                    time.perf_counter() - t0)
            rows["bridge: session.documents round trip"] = asyncio.run(_bridge(session, n))
            live.detach("bench over")
        finally:
            ed.stop()
    print(f"boardwire {__version__}, KiCad {live.editor.version}, {time.strftime('%Y-%m-%d')}, repeat {n}; "
          f"editor launch to ready {launch:.1f} s\n")
    print("| operation | median ms | max ms |\n|---|---|---|")
    for name, samples in rows.items():
        med, mx = ms(samples)
        print(f"| {name} | {med} | {mx} |")


async def _bridge(session, n: int) -> list[float]:
    from websockets.asyncio.client import connect

    from boardwire.protocols.bridge import Bridge, contract

    bridge = Bridge(session)
    server = await bridge.listen("127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    out = []
    async with connect(f"ws://127.0.0.1:{port}") as ws:
        await ws.send(json.dumps({"type": "handshake", "protocol": contract.PROTOCOL, "protocolVersion": "1.0.0",
                                  "contractVersion": 1, "clientName": "boardwire-client", "clientVersion": __version__}))
        await ws.recv()
        for i in range(n):
            t0 = time.perf_counter()
            await ws.send(json.dumps({"jsonrpc": "2.0", "id": i, "method": "session.documents"}))
            while json.loads(await ws.recv()).get("id") != i:
                pass
            out.append(time.perf_counter() - t0)
    server.close()
    await bridge.close()
    return out


if __name__ == "__main__":
    main()
