"""Fixtures for the KiCad 9 oracles; see tests/inputs.py for the inputs."""

from __future__ import annotations

import shutil

import pytest

from tests.inputs import SYSTEM_PYTHON, _missing, have_kicad_cli, have_pcbnew


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
