"""schemathesis over the whole OpenAPI document, every default check, inside pytest.

One rule beyond the defaults: a request the schema calls valid may be refused only by the
rules of the game (problem types rule-violation, dice, limit) or by the grammar of dice
notation, which the document states in words (notation), never as a schema mismatch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.core.failures import Failure

# The committed document, which tests/test_openapi.py holds equal to the app's own: the
# operations are known when the module is collected, and the app is the session fixture's.
SCHEMA = schemathesis.openapi.from_path(Path(__file__).resolve().parent.parent / "openapi.yaml")
RULE_PROBLEMS = ("rule-violation", "dice", "limit", "notation")


class RefusedValidData(Failure):
    pass


@schemathesis.check
def valid_data_refused_only_by_rules(ctx, response, case):  # type: ignore[no-untyped-def]
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return None
    kind = str(response.json().get("type", "")).rsplit("#", 1)[-1]
    if kind not in RULE_PROBLEMS:
        raise RefusedValidData(
            operation=case.operation.label,
            title="Schema-valid request refused as invalid",
            message=f"422 of type {kind!r}: {response.json().get('detail')}",
        )
    return None


@SCHEMA.parametrize()
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation(case: schemathesis.Case[Any], app: Flask) -> None:
    case.call_and_validate(app=app)
