"""The catalog's answers (GET /v1/rulesets and each ruleset), as typed values: the one
definition of their shapes (the HTTP layer derives their schemas and components). A
ruling and its readings are shapes of engine/ruleset.py, written by ``to_json``. No ``from
__future__ import annotations``: the schemas read the types at run time.
"""

from typing import Annotated, TypedDict

from .typed import JsonObject, JsonOf


class StepInfo(TypedDict):
    """One step of a ruleset: what it resolves, the dice it rolls, where it is served."""

    name: str
    summary: str
    dice: str
    path: str
    odds_path: str | None


class RulesetSummary(TypedDict):
    id: str
    title: str
    source: str
    steps: list[str]


class RulesetList(TypedDict):
    rulesets: list[RulesetSummary]


class RulesetDetail(TypedDict):
    id: str
    title: str
    source: str
    description: str
    steps: list[StepInfo]
    rulings: list[Annotated[JsonObject, JsonOf("service.engine.ruleset.Ruling", written=True)]]
