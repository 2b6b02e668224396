"""Step, Ruling, Reading and the step registration (StepHTTP) take several strings in a row:
they are keyword-only, so two of them cannot be swapped by position unnoticed."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from marshmallow import Schema

from service.engine import shape
from service.engine.ruleset import NoInput, Reading, Ruling, Step
from service.http.endpoints.steps import StepHTTP


def _resolve(_: Any, __: Any) -> dict[str, Any]:
    return {}


@pytest.mark.parametrize(
    ("cls", "positional"),
    [
        (Reading, ("loose", "Loosely")),
        (Ruling, ("r", "question?", "ruling.", "reason.")),
        (Step, ("s", "S", "the step", "1d6", _resolve)),
        (StepHTTP, ("s", NoInput, Schema, {})),
    ],
)
def test_positional_strings_are_refused(cls: type, positional: tuple[Any, ...]) -> None:
    assert dataclasses.is_dataclass(cls)
    assert all(field.kw_only for field in dataclasses.fields(cls))
    with pytest.raises(TypeError):
        cls(*positional)


def test_the_same_members_by_name_make_the_object() -> None:
    step = Step(name="s", summary="S", description="the step", dice="1d6", resolve=_resolve)
    assert (step.name, step.summary, step.description, step.dice) == ("s", "S", "the step", "1d6")
    http = StepHTTP(name="s", inputs=NoInput, result=Schema, example={})
    assert http.make({}) == NoInput()
    reading = Reading(id="loose", text="Loosely", default=True)
    assert shape.to_json(reading)["text"] == "Loosely"
