"""The design document's schema: closed, published (docs/design-schema.json is the
model's schema), and the example design.brief gives validates."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from boardwire.commands.design import EXAMPLE
from boardwire.design.document import Design, dumps, schema
from tests.inputs import REPO


def test_published_schema_is_the_models():
    assert json.loads((REPO / "docs" / "design-schema.json").read_text()) == schema()


def test_closed_and_example_valid():
    d = Design.model_validate(EXAMPLE)
    assert Design.model_validate(json.loads(dumps(d))) == d
    assert list(json.loads(dumps(d))["nets"]) == list(EXAMPLE["nets"])  # the order the build draws them
    for bad in ({**EXAMPLE, "extra": 1}, {**EXAMPLE, "components": [{"ref": "U1"}]},
                {**EXAMPLE, "nets": {"A": ["U1-3"]}}, {**EXAMPLE, "board": {"size": [1, 1]}}):
        with pytest.raises(ValidationError):
            Design.model_validate(bad)
