"""Files KiCad refuses are refused quickly, in bounded memory, with a clear error:
unknown top-level lists, absurd nesting, format versions no KiCad wrote."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import boardwire
from boardwire.documents import from_bytes
from boardwire.documents.refusals import check_version
from boardwire.errors import ParseError, UnsupportedFormat
from boardwire.sexpr.index import MAX_DEPTH

HEADER = b'(kicad_pcb (version 20241229) (generator "pcbnew")\n'

_MEASURE = """
import json, re, sys, time
import boardwire
t, cpu = time.perf_counter(), time.process_time()
try:
    boardwire.open(sys.argv[1])
    code = None
except Exception as e:
    code = getattr(e, "code", type(e).__name__)
    message = str(e)
print(json.dumps({"code": code, "message": message if code else "",
                  "s": time.perf_counter() - t,
                  # the CPU it cost: what the refusal takes, whatever else the machine runs
                  "cpu_s": time.process_time() - cpu,
                  # VmHWM: this process's peak since exec (ru_maxrss keeps the peak of the
                  # process that forked it: a big pytest worker's)
                  "rss_mb": int(re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read()).group(1)) / 1024}))
"""


def _open_in_child(path: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(path)], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


def test_fifty_megabytes_of_unknown_lists_are_refused_fast(tmp_path):
    unit = b'  (foo_unknown (bar 1 2 3) (baz "x" (qux 4)))\n'
    p = tmp_path / "junk.kicad_pcb"
    p.write_bytes(HEADER + unit * (50_000_000 // len(unit)) + b")\n")
    r = _open_in_child(p)
    assert r["code"] == "parse-error" and "unknown token 'foo_unknown'" in r["message"], r
    assert ":2:3:" in r["message"]  # where: line 2, column 3
    assert r["cpu_s"] < 5 and r["rss_mb"] < 500, r


def test_two_hundred_thousand_nested_lists_are_refused_fast(tmp_path):
    depth = 200_000
    p = tmp_path / "nested.kicad_pcb"
    p.write_bytes(HEADER + b"(a" * depth + b")" * depth + b")\n")
    r = _open_in_child(p)
    assert r["code"] == "parse-error" and f"more than {MAX_DEPTH} deep" in r["message"], r
    assert r["cpu_s"] < 5 and r["rss_mb"] < 500, r


@pytest.mark.parametrize("inner", [b"(gr_line (start 0 0) (end 1 1) (layer \"F.Cu\"))",
                                   b"(footprint \"x\" (layer \"F.Cu\"))"])
def test_deep_nesting_inside_a_known_item_is_refused(inner):
    deep = b"(a" * (MAX_DEPTH + 5) + b")" * (MAX_DEPTH + 5)
    text = HEADER + inner[:-1] + b" " + deep + b")\n)\n"
    with pytest.raises(ParseError, match="deep"):
        from_bytes(text, "x.kicad_pcb")
    # the exact reader (a '#' line keeps the fast scan away) refuses it the same way
    with pytest.raises(ParseError, match="deep"):
        from_bytes(text.replace(b"\n", b"\n# a comment line\n", 1), "x.kicad_pcb")


def test_unknown_keywords_are_refused_by_both_readers():
    text = HEADER + b"  (net 0 \"\")\n  (wibble 1)\n)\n"
    for data in (text, text.replace(b"  (net", b"# c\n  (net", 1)):
        with pytest.raises(ParseError, match="unknown token 'wibble'") as e:
            from_bytes(data, "x.kicad_pcb")
        assert e.value.code == "parse-error" and e.value.line >= 3
    sch = b'(kicad_sch (version 20250114) (generator "eeschema")\n  (wibble 1)\n)\n'
    with pytest.raises(ParseError, match="wibble"):
        from_bytes(sch, "x.kicad_sch")


def test_known_keywords_of_every_generation_are_read():
    # KiCad 4 (page before paper), a KiCad 10 keyword in a KiCad 10 file
    old = b"(kicad_pcb (version 4) (host pcbnew 4.0.7)\n  (page A4)\n  (module x (layer F.Cu))\n)\n"
    assert len(from_bytes(old, "x.kicad_pcb").footprints) == 1
    new = b'(kicad_pcb (version 20260206) (generator "pcbnew")\n  (barcode (layer "F.Cu"))\n)\n'
    assert from_bytes(new, "x.kicad_pcb").version == 20260206


@pytest.mark.parametrize("version", [99999999, 20261301, 20240230, 30000101])
def test_versions_no_kicad_wrote_are_unsupported(version):
    text = f'(kicad_pcb (version {version}) (generator "pcbnew")\n)\n'.encode()
    with pytest.raises(UnsupportedFormat) as e:
        from_bytes(text, "x.kicad_pcb")
    assert e.value.code == "unsupported-format" and str(version) in str(e.value)
    with pytest.raises(UnsupportedFormat):
        from_bytes(text.replace(b"kicad_pcb", b"kicad_sch"), "x.kicad_sch")


def test_version_dates_up_to_today_are_read():
    import datetime

    check_version(20260831, "f", today=datetime.date(2026, 12, 1))  # a nightly's date
    check_version(20260831, "f", today=datetime.date(2025, 1, 1))  # seen in a real file
    check_version(4, "f")  # KiCad 4 boards
    with pytest.raises(UnsupportedFormat):
        check_version(20261002, "f", today=datetime.date(2026, 10, 1))


def _with_edge_end(tmp_path, value: str) -> Path:
    """ecc83-pp's board with the end x of its first Edge.Cuts line set to ``value``."""
    from tests.inputs import DEMOS, need

    text = need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb").read_text()
    edge = text.index('(layer "Edge.Cuts")', text.index("(gr_line"))
    end = text.rindex("(end ", 0, edge)
    y = text[end:text.index(")", end)].split()[2]
    path = tmp_path / "b.kicad_pcb"
    path.write_text(text[:end] + f"(end {value} {y}" + text[text.index(")", end):])
    return path


@pytest.mark.kicad
@pytest.mark.parametrize("value", ["1e12", "-1000000000000", "2147.4837", "nan", "inf"])
def test_a_length_beyond_kicads_range_is_refused_at_load(tmp_path, value):
    """Issue 36: one Edge.Cuts coordinate at 1e12 mm made pcb.autoroute loop for
    minutes. KiCad holds lengths as 32-bit nanometres (+-2147.483647 mm); beyond that
    the file is refused where the number is, naming the item."""
    path = _with_edge_end(tmp_path, value)
    line = path.read_bytes()[:path.read_bytes().index(f"(end {value}".encode())].count(b"\n") + 1
    with pytest.raises(ParseError) as e:
        boardwire.open(path)
    assert (e.value.line, e.value.col) == (line, 8)
    assert f"{value} mm in (end ...) of the gr_line" in e.value.message and "2147.483647" in e.value.message


@pytest.mark.kicad
def test_lengths_up_to_kicads_limit_are_read(tmp_path):
    path = _with_edge_end(tmp_path, "-2147.483647")
    assert boardwire.open(path).to_bytes() == path.read_bytes()


def test_the_python_scan_finds_what_the_compiled_one_finds():
    from boardwire.documents.refusals import LENGTH_KEYWORDS
    from boardwire.sexpr.ranges import _beyond_py, beyond

    src = (HEADER + b'  (gr_text "1e99" (at 1 2) (layer "F.Cu") (size 3000 1))\n'
           b'  (net 5000 "x")\n  (gr_line (start 0 0) (end 1E4 2) (layer "Edge.Cuts")))\n')
    assert beyond(src, 2147.5, LENGTH_KEYWORDS) == _beyond_py(src, 2147.5, LENGTH_KEYWORDS, 0, len(src))
    pos, head, item = beyond(src, 2147.5, LENGTH_KEYWORDS)
    assert src[pos:pos + 4] == b"3000" and src[head:head + 4] == b"size" and src[item:item + 8] == b"(gr_text"
