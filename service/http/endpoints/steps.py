"""Step registration: one POST endpoint per engine step (and its /odds), from a StepHTTP.

What a view decides is in plain functions: ``step_inputs`` (the request's own inputs, apart
from the envelope members ``dice``, ``prev`` and ``rules``), ``dice_or_fresh`` and the
ruleset's ``readings_in_force``.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import Response
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from ...engine import dice as engine_dice
from ...engine import shape
from ...engine.errors import RuleError
from ...engine.ruleset import Ruleset, Step, run_step, step_odds
from .. import pictures
from ..document.components import camel
from ..document.derive import field_of, members_schema
from ..document.fields import Const
from ..fast.answers import json_response
from ..fast.api import plainly
from ..middleware.metrics import count_rolls
from ..signing.receipts import PREFER_PARAMETER, prev_field, signed
from .dice_in import check_rules, dice_field, dice_or_fresh, dice_source
from .envelope import (
    EnvelopeBase,
    OddsBase,
    OddsOutcomeBase,
    named,
    rules_echo_field,
    rules_field,
)

# Members of a step request that are the envelope's, not the step's: the dice, the receipt
# this answer follows (``prev``, which the signed request body carries) and the readings.
ENVELOPE_MEMBERS = frozenset(("dice", "prev", "rules"))


def step_inputs(args: Mapping[str, Any]) -> dict[str, Any]:
    """The members of a validated request that are the step's own inputs."""
    return {key: value for key, value in args.items() if key not in ENVELOPE_MEMBERS}


@dataclass(frozen=True, kw_only=True)
class StepHTTP:
    """The HTTP face of one engine step."""

    name: str
    # The step's inputs: their shape (a dataclass, service/engine/shape.py), whose schema
    # derive.py works out and which the step is handed; ``NoInput`` for dice alone.
    inputs: type
    # The step's typed result (its TypedDict, or a union of them, whose schema derive.py
    # works out), or a schema written by hand.
    result: Any
    example: Mapping[str, Any]
    odds_result: Any = None  # an /odds outcome's result, if not ``result``
    # Accept: image/svg+xml: a picture of the answer, given the request body it answers
    picture: Callable[[Mapping[str, Any], Mapping[str, Any]], str] | None = None
    # An /odds outcome's result reworded for its picture, where its members would not read
    # well as they are (pictures.py says how a result reads).
    words: pictures.Words | None = None
    # Another step of the ruleset, registered before this one, whose request this step takes
    # as it is: both operations reference its one ``{base}Request`` component (the same
    # inputs, the same envelope), so a client builds one body for both.
    request_of: str | None = None

    @property
    def schema(self) -> type[Schema]:
        """The schema of the step's own members (the envelope adds its own)."""
        return members_schema(self.inputs)

    @property
    def reads(self) -> Any:
        """The type an /odds picture reads an outcome by: what ``words`` returns, where the
        ruleset rewords the result, else the result's own."""
        if self.words is not None:
            return typing.get_type_hints(self.words)["return"]
        return self.odds_result or self.result

    @property
    def make(self) -> Callable[[dict[str, Any]], Any]:
        """How the step's inputs are made of its validated members."""
        return shape.maker(self.inputs)


# Examples of answers: the step run on its request example, with a placeholder receipt (the
# signature depends on the key of each deployment). Dice that the example leaves to the
# server come from this fixed "fresh" seed, so the document stays the same from run to run.
EXAMPLE_FRESH_SEED = "ZXhhbXBsZS1mcmVzaC1zZWVk"
EXAMPLE_RECEIPT = "eyJhbGciOiJFZDI1NTE5Iiwia2lkIjoiZXhhbXBsZSJ9..c2lnbmF0dXJl"
EXAMPLE_ISSUED_AT = "2026-11-30T09:30:00Z"
ODDS_EXAMPLE_OUTCOMES = 3


def example_provenance(path: str, body: Any) -> dict[str, Any]:
    return {
        "service": "fire-control",
        "kid": "example",
        "issued_at": EXAMPLE_ISSUED_AT,
        "request": {"path": path, "body": body},
    }


def example_answer(
    ruleset: str | None,
    step: Step,
    example: Mapping[str, Any],
    build: Any,
    request: Schema,
    path: str,
    rules: Ruleset | None = None,
) -> dict[str, Any]:
    """The answer to the step's request example, as the service gives it (receipt aside)."""
    args = request.load(dict(example))
    readings = rules.readings_in_force(args.get("rules")) if rules is not None else None
    asked = args.get("dice")
    dice = (
        dice_source(asked)
        if asked is not None
        else engine_dice.SeededDice(EXAMPLE_FRESH_SEED, generated=True)
    )
    envelope = run_step(ruleset, step, build(step_inputs(args)), dice, readings)
    envelope["provenance"] = example_provenance(path, dict(example))
    envelope["receipt"] = EXAMPLE_RECEIPT
    return envelope


def odds_answer(
    ruleset: Ruleset, step: Step, spec: StepHTTP, request: Schema
) -> dict[str, Any] | None:
    """The odds of the request example (its first outcomes), or none where it is refused."""
    example = {k: v for k, v in spec.example.items() if k != "dice"}
    args = request.load(example)
    readings = ruleset.readings_in_force(args.get("rules"))
    try:
        odds = step_odds(ruleset.id, step, spec.make(step_inputs(args)), readings)
    except RuleError:
        return None
    odds["outcomes"] = odds["outcomes"][:ODDS_EXAMPLE_OUTCOMES]
    return odds


def _result(result: Any) -> fields.Field[Any]:
    """A step result's member of its answer: derived from its TypedDict (or from a union of
    them, told apart by the member each variant fixes), or the schema written by hand."""
    if isinstance(result, type) and issubclass(result, Schema):
        return fields.Nested(result, required=True)
    return field_of(result, required=True)


def operation_id(name: str) -> str:
    """A method name for generated clients: ``SalvoSoloTurn`` -> ``salvoSoloTurn``."""
    return name[:1].lower() + name[1:]


def register_steps(blp: Blueprint, ruleset: Ruleset, steps: list[StepHTTP]) -> None:
    """One POST endpoint per step (and its /odds where the step has one)."""
    requests: dict[str, tuple[StepHTTP, Schema]] = {}
    for spec in steps:
        requests[spec.name] = (spec, _register(blp, ruleset, spec, requests))


def _request(
    ruleset: Ruleset, spec: StepHTTP, base: str, requests: Mapping[str, tuple[StepHTTP, Schema]]
) -> Schema:
    """The step's request schema: its own ``{base}Request``, or the one of the step it takes
    the request of (``request_of``), which must read the same inputs."""
    if spec.request_of is None:
        envelope = {"dice": dice_field(), "prev": prev_field(), "rules": rules_field(ruleset)}
        return named(f"{base}Request", spec.schema, envelope)()
    if spec.request_of not in requests:
        raise ValueError(f"{spec.name} takes the request of {spec.request_of}, not before it")
    other, schema = requests[spec.request_of]
    if other.inputs is not spec.inputs:
        raise ValueError(f"{spec.name} takes the request of {other.name}, with other inputs")
    return schema


def _register(
    blp: Blueprint,
    ruleset: Ruleset,
    spec: StepHTTP,
    requests: Mapping[str, tuple[StepHTTP, Schema]],
) -> Schema:
    """Register the step's endpoints; its request schema."""
    # Request schemas go to blp.arguments as instances: given a class, webargs builds a new
    # schema on every request (about 40 us).
    step = ruleset.step(spec.name)
    make = spec.make  # made once, called on every request
    base = camel(ruleset.id) + camel(step.name)
    request_schema = _request(ruleset, spec, base, requests)
    tags = {"ruleset": Const(ruleset.id, required=True), "step": Const(step.name, required=True)}
    echoed = rules_echo_field(ruleset)
    response = named(
        f"{base}Response",
        EnvelopeBase,
        {**tags, "rules": echoed, "result": _result(spec.result)},
    )

    def resolve(args: dict[str, Any]) -> Response:
        svg = spec.picture is not None and pictures.wants_svg()
        dice = dice_or_fresh(args.get("dice"))
        readings = ruleset.readings_in_force(args.get("rules"))
        check_rules(dice, ruleset.id, readings)
        envelope = run_step(ruleset.id, step, make(step_inputs(args)), dice, readings)
        count_rolls(ruleset.id, step.name, len(envelope["rolls"]))
        if spec.picture is None:
            return signed(envelope)
        if svg:
            draw, body = spec.picture, pictures.asked()
            return pictures.answer(envelope, lambda answer: draw(answer, body))
        return pictures.varies(signed(envelope))

    path = f"{blp.url_prefix}/{step.route}"
    answer = example_answer(
        ruleset.id, step, spec.example, spec.make, request_schema, path, rules=ruleset
    )

    resolve.__name__ = f"{step.name.replace('-', '_')}"
    view = blp.doc(
        operationId=operation_id(base),
        summary=step.summary,
        description=f"{step.description} Dice: {step.dice}.",
        parameters=[PREFER_PARAMETER],
        **(pictures.doc() if spec.picture is not None else {}),
    )(
        blp.response(200, response, example=answer)(
            blp.arguments(request_schema, example=dict(spec.example))(resolve)
        )
    )
    blp.route(f"/{step.route}", methods=["POST"])(plainly(request_schema)(view))

    if not step.odds:
        return request_schema
    odds_request = named(f"{base}OddsRequest", spec.schema, {"rules": rules_field(ruleset)})
    outcome = named(
        f"{base}OddsOutcome",
        OddsOutcomeBase,
        {"result": _result(spec.odds_result or spec.result)},
    )
    odds_response = named(
        f"{base}Odds",
        OddsBase,
        {**tags, "rules": echoed, "outcomes": fields.List(fields.Nested(outcome), required=True)},
    )
    odds_example = {k: v for k, v in spec.example.items() if k != "dice"}
    odds_schema = odds_request()
    reads = pictures.reading(spec.reads)

    def odds(args: dict[str, Any]) -> Response:
        svg = pictures.wants_svg()
        readings = ruleset.readings_in_force(args.get("rules"))
        answer = step_odds(ruleset.id, step, make(step_inputs(args)), readings)
        if svg:
            said = partial(pictures.odds, reads=reads, words=spec.words, asked=pictures.asked())
            return pictures.answer(answer, said)
        return pictures.varies(json_response(answer))

    odds.__name__ = f"{step.name.replace('-', '_')}_odds"
    odds_view = blp.doc(
        operationId=operation_id(f"{base}Odds"),
        summary=f"Odds: {step.summary[0].lower()}{step.summary[1:]}",
        description="The exact distribution of this step's results for these inputs, "
        "over every face of every die, worked out by the same rules code that resolves a roll. "
        "No dice are rolled.",
        **pictures.doc(),
    )(
        blp.response(200, odds_response, example=odds_answer(ruleset, step, spec, odds_schema))(
            blp.arguments(odds_schema, example=odds_example)(odds)
        )
    )
    blp.route(f"/{step.route}/odds", methods=["POST"])(plainly(odds_schema)(odds_view))
    return request_schema
