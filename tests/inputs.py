"""Test inputs: real KiCad files (the installed demos and libraries, and
../shared/corpus), and the KiCad 9 oracles (kicad-cli, pcbnew in the system python).

Tests that need KiCad use the ``kicad`` marker. Where KiCad or an input (demos,
libraries, corpus, the Node tools) is absent they are skipped with the reason shown,
unless BOARDWIRE_REQUIRE_KICAD=1 (set by .ci/run), which turns the skip into a failure
so CI can never pass without running them: skip through `absent` (or `need`,
`need_corpus`, `_missing`), never with a plain ``pytest.skip``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
KICAD_SHARE = Path(os.environ.get("BOARDWIRE_KICAD_SHARE", "/usr/share/kicad"))
DEMOS = KICAD_SHARE / "demos"
FOOTPRINTS = KICAD_SHARE / "footprints"
SYMBOLS = KICAD_SHARE / "symbols"
def _corpus() -> Path:
    """../shared/corpus beside the checkout (the team's layout), or $BOARDWIRE_CORPUS."""
    if os.environ.get("BOARDWIRE_CORPUS"):
        return Path(os.environ["BOARDWIRE_CORPUS"])
    for candidate in (REPO.parent / "shared" / "corpus", Path("/work/shared/corpus")):
        if candidate.is_dir():
            return candidate
    return REPO.parent / "shared" / "corpus"


CORPUS = _corpus()
SYSTEM_PYTHON = os.environ.get("BOARDWIRE_PCBNEW_PYTHON", "/usr/bin/python3")

SEXPR_SUFFIXES = (".kicad_pcb", ".kicad_sch", ".kicad_mod", ".kicad_sym", ".kicad_dru",
                  ".kicad_wks")
TABLE_NAMES = ("fp-lib-table", "sym-lib-table")
REQUIRE_KICAD = os.environ.get("BOARDWIRE_REQUIRE_KICAD") == "1"


def kicad_files(root: Path, suffixes=SEXPR_SUFFIXES, names=TABLE_NAMES) -> list[Path]:
    if not root.is_dir():
        return []
    out = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(suffixes) or f in names:
                out.append(Path(dirpath) / f)
    return sorted(out)


# Boards this big (vme-wren, 70 MB) are checked by one dedicated test each
# (tests/test_huge_boards.py), not by every per-demo parametrisation.
HUGE_BOARD_BYTES = 20_000_000


def demo_boards() -> list[Path]:
    """The demo boards but the huge ones (`huge_demo_boards`)."""
    return [p for p in kicad_files(DEMOS, (".kicad_pcb",), ()) if p.stat().st_size <= HUGE_BOARD_BYTES]


def huge_demo_boards() -> list[Path]:
    """The demo boards over HUGE_BOARD_BYTES."""
    return [p for p in kicad_files(DEMOS, (".kicad_pcb",), ()) if p.stat().st_size > HUGE_BOARD_BYTES]


def have_kicad_cli() -> bool:
    return shutil.which("kicad-cli") is not None


def have_pcbnew() -> bool:
    import subprocess

    if not Path(SYSTEM_PYTHON).exists():
        return False
    r = subprocess.run([SYSTEM_PYTHON, "-c", "import pcbnew"], capture_output=True)
    return r.returncode == 0


def absent(msg: str):
    """Skip the test for a missing tool or input, or fail it under BOARDWIRE_REQUIRE_KICAD."""
    if REQUIRE_KICAD:
        pytest.fail(msg + " and BOARDWIRE_REQUIRE_KICAD=1", pytrace=False)
    pytest.skip(msg)


def _missing(what: str):
    absent(f"{what} is not installed (install KiCad 9: .ci/install-kicad.sh)")


def need(path: Path) -> Path:
    """Skip (or fail under BOARDWIRE_REQUIRE_KICAD) when a test input is missing."""
    if not path.exists():
        _missing(str(path))
    return path


def corpus_files(suffixes=SEXPR_SUFFIXES, names=TABLE_NAMES) -> list[Path]:
    """Files of ../shared/corpus (empty when the corpus is not next to the repo)."""
    return kicad_files(CORPUS, suffixes, names)


def need_corpus() -> Path:
    if not CORPUS.is_dir():
        absent(f"the shared corpus is not at {CORPUS} (set BOARDWIRE_CORPUS)")
    return CORPUS


def big_footprint_board(dest: Path, pads: int, reference: str = "R2") -> Path:
    """The example board with ``pads`` more pads (0.3 mm squares, 0.5 mm pitch, no
    net) in footprint ``reference``."""
    from boardwire.cli.main import example_board

    src = example_board().read_text()
    start = src.index(f'(property "Reference" "{reference}"')
    end = src.index("\n\t)\n", start)  # the footprint's closing parenthesis
    side = int(pads ** 0.5) + 1
    rows = "".join(f'\n\t\t(pad "{k + 3}" smd rect (at {k % side * 0.5:.2f} {k // side * 0.5 + 3:.2f})'
                   f' (size 0.3 0.3) (layers "F.Cu" "F.Paste" "F.Mask")'
                   f' (uuid "00000000-0000-4000-8000-{k:012d}"))' for k in range(pads))
    dest.write_text(src[:end] + rows + src[end:])
    return dest
