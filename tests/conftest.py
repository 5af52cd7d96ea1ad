"""Fixtures for the KiCad 9 oracles; see tests/inputs.py for the inputs."""

from __future__ import annotations

import os
import shutil

# Long commands called through an agent's door answer with a job after 25 s; on a busy
# CI machine a render or DRC can take longer, and a test that is not about jobs wants the
# result. tests/jobs passes wait_s itself. Set before boardwire starts (servers inherit it).
os.environ.setdefault("BOARDWIRE_WAIT_S", "900")
# Every command result is checked against its command's result model (registry.check_result).
os.environ.setdefault("BOARDWIRE_CHECK_RESULTS", "1")

import pytest

import boardwire.commands  # noqa: F401  the command loader, as every door installs it
from tests.inputs import SYSTEM_PYTHON, _missing, absent, have_kicad_cli, have_pcbnew


@pytest.fixture(scope="session")
def kicad_cli() -> str:
    if not have_kicad_cli():
        _missing("kicad-cli")
    return shutil.which("kicad-cli")


@pytest.fixture(scope="session")
def pcbnew_python() -> str:
    if not have_pcbnew():
        _missing("KiCad's pcbnew module for the system python")
    return SYSTEM_PYTHON


def pytest_collection_modifyitems(items):
    """The heavy tests first, the longest first (the order is otherwise kept):
    pytest-xdist hands tests out in this order, so a long one never starts last while
    the other workers idle."""
    def minutes(item) -> float:
        mark = item.get_closest_marker("heavy")
        return mark.kwargs["minutes"] if mark is not None else 0.0

    items.sort(key=minutes, reverse=True)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """A parametrisation over inputs that are not here (no demos, no corpus) is empty,
    and pytest skips it by itself: under BOARDWIRE_REQUIRE_KICAD that fails like every
    other missing input."""
    for mark in item.iter_markers("skip"):
        reason = str(mark.kwargs.get("reason", ""))
        if reason.startswith("got empty parameter set"):
            absent(f"{item.name}: {reason}, its inputs are missing")
