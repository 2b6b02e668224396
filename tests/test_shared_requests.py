"""A step may take another step's request as it is (``StepHTTP.request_of``): both
operations then reference one request component, so a client builds one body for both.
The registration refuses a step that names a step registered after it, or one whose
inputs are not its own."""

from __future__ import annotations

import pytest
from flask_smorest import Blueprint

from service.http.endpoints.steps import StepHTTP, register_steps
from service.rulesets.dreadnought import RULESET, results, steps

RANGE = StepHTTP(
    name="range",
    inputs=steps.RangeInput,
    result=results.DreadnoughtRangeResult,
    example={"calibre": 8, "target_class": "Armoured Cruiser", "distance": 12},
)


def _blueprint() -> Blueprint:
    return Blueprint("shared-requests", __name__, url_prefix="/shared")


def test_a_step_takes_only_the_request_of_a_step_registered_before_it() -> None:
    odds = StepHTTP(
        name="critical",
        inputs=steps.RangeInput,
        result=results.DreadnoughtCriticalResult,
        example={},
        request_of="range",
    )
    with pytest.raises(ValueError, match="critical takes the request of range, not before it"):
        register_steps(_blueprint(), RULESET, [odds, RANGE])


def test_a_step_takes_only_the_request_of_a_step_with_its_own_inputs() -> None:
    critical = StepHTTP(
        name="critical",
        inputs=steps.CriticalInput,
        result=results.DreadnoughtCriticalResult,
        example={},
        request_of="range",
    )
    with pytest.raises(ValueError, match="critical takes the request of range, with other"):
        register_steps(_blueprint(), RULESET, [RANGE, critical])
