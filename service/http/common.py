"""What every step endpoint shares: dice in, envelope out, odds, one registration helper."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from flask import Response
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, post_load, validate

from ..engine import dice as engine_dice
from ..engine.errors import RuleError
from ..engine.ruleset import NoInput, Ruleset, Ruling, Step, run_step, step_odds
from ..receipts import sealing
from ..receipts.signing import rfc3339
from ..rulesets import REGISTERED
from . import pictures
from .components import EnumType
from .fields import Const, OneOf, StrictInteger, date_time
from .metrics import count_rolls
from .receipts import ProvenanceSchema, current_keys, prev_field, receipt_field, signed


def json_response(body: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status=status, mimetype="application/json")


RULESET_ID = EnumType(
    "RulesetId",
    (name.replace("_", "-") for name in REGISTERED),
    "A ruleset this service resolves (GET /v1/rulesets lists them).",
)
DICE_MODE = EnumType(
    "DiceMode",
    ("seeded", "supplied", "sealed"),
    "How the dice were obtained: rolled from a seed, supplied by the player, or rolled from "
    "a sealed server seed and the client's seed.",
)
SEED_SOURCE = EnumType(
    "SeedSource",
    ("client", "server"),
    "Who chose the seed: the client, or the service (fresh, from its randomness).",
)


# --- dice in ------------------------------------------------------------------------


def _unicode(text: str) -> None:
    """A seed is hashed as UTF-8: a lone surrogate escape ("\\ud800") has no UTF-8 form."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError("Not valid Unicode text (a lone surrogate escape).") from None


def _nonce() -> StrictInteger:
    return StrictInteger(
        load_default=0,
        validate=validate.Range(min=0, max=engine_dice.MAX_NONCE),
        metadata={"description": "Counts up through a game (turn or roll number)"},
    )


class SeededDiceSchema(Schema):
    """The service rolls, deterministically, from a seed and a nonce."""

    seed = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=256), _unicode],
        metadata={"description": "Any text; a game keeps one seed", "example": "game-42"},
    )
    nonce = _nonce()

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> engine_dice.DiceSource:
        return engine_dice.SeededDice(data["seed"], data["nonce"])


class SuppliedDiceSchema(Schema):
    """Dice the player rolled at the table, in the order the step consumes them."""

    values = fields.List(
        StrictInteger(validate=validate.Range(min=1, max=engine_dice.MAX_SIDES)),
        required=True,
        validate=validate.Length(min=1, max=engine_dice.MAX_DICE_PER_REQUEST),
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> engine_dice.DiceSource:
        return engine_dice.SuppliedDice(data["values"])


class BoundSealedDice(engine_dice.SealedDice):
    """Sealed dice whose token binds the client seed: the answer's ``dice`` shows the binding."""

    def __init__(self, *args: Any, client_seed_sha256: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.client_seed_sha256 = client_seed_sha256

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "client_seed_sha256": self.client_seed_sha256}


class SealedDiceSchema(Schema):
    """The service rolls from a sealed server seed (POST /v1/seeds) and the client's seed."""

    sealed = fields.String(
        required=True,
        validate=validate.Length(min=1, max=sealing.MAX_TOKEN),
        metadata={"description": "The token POST /v1/seeds returned"},
    )
    client_seed = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=256), _unicode],
        metadata={
            "description": "Any text, chosen before the seal; if the token binds a client "
            "seed (`client_seed_sha256`), exactly the seed whose SHA-256 it binds",
            "example": "ajax",
        },
    )
    nonce = _nonce()

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> engine_dice.DiceSource:
        opened = sealing.open_token(current_keys().seals, data["sealed"])
        if opened.is_example:
            raise sealing.SealError("the documentation's example token only shows a reveal")
        if time.time() >= opened.reveal_after:
            raise sealing.SealError(
                f"this sealed seed may be revealed since {rfc3339(opened.reveal_after)}, so its "
                "rolls are no longer secret: seal a new one with POST /v1/seeds"
            )
        if not opened.admits(data["client_seed"]):
            raise sealing.SealError(
                "this sealed token binds the client seed whose SHA-256 is "
                f"{opened.client_seed_sha256}; dice.client_seed is not that seed, and a bound "
                "token rolls with no other",
                field="dice.client_seed",
            )
        reveal_after = rfc3339(opened.reveal_after)
        if opened.client_seed_sha256 is None:
            return engine_dice.SealedDice(
                opened.seed, data["client_seed"], data["nonce"], reveal_after=reveal_after
            )
        return BoundSealedDice(
            opened.seed,
            data["client_seed"],
            data["nonce"],
            reveal_after=reveal_after,
            client_seed_sha256=opened.client_seed_sha256,
        )


DICE_VARIANTS = [SeededDiceSchema, SuppliedDiceSchema, SealedDiceSchema]


def dice_field() -> OneOf:
    return OneOf(
        DICE_VARIANTS,
        metadata={
            "description": "Seeded ({seed, nonce}), supplied ({values}) or sealed ({sealed, "
            "client_seed, nonce}) dice; leave out for fresh dice from the server's randomness "
            "(the seed is returned)."
        },
    )


def dice_from(args: dict[str, Any]) -> engine_dice.DiceSource:
    """The dice source of a request; also takes ``prev`` out, as it is no step input."""
    args.pop("prev", None)
    source: engine_dice.DiceSource | None = args.pop("dice", None)
    return source if source is not None else engine_dice.SeededDice.fresh()


# --- rule options in (and echoed out) ------------------------------------------------------


def _ruling_field(prefix: str, ruling: Ruling) -> fields.Field[Any]:
    readings = EnumType(
        f"{prefix}{_camel(ruling.id)}Reading",
        (reading.id for reading in ruling.readings),
        f"The readings of ruling `{ruling.id}`. "
        + " ".join(
            f"`{r.id}`{' (default)' if r.default else ''}: {r.text}" for r in ruling.readings
        ),
    )
    return readings.field(metadata={"description": ruling.question})


_RULES: dict[str, type[Schema]] = {}


def rules_schema(ruleset: Ruleset) -> type[Schema]:
    """``<Ruleset>Rules``: one optional enum member per ruling with readings, made once.

    The request's ``rules`` and the answer's echo are this one component, so an answer's
    readings can be sent back as they are. An unknown ruling names the ones there are.
    """
    found = _RULES.get(ruleset.id)
    if found is not None:
        return found
    prefix = _camel(ruleset.id)
    optional = ruleset.optional
    known = ", ".join(ruling.id for ruling in optional)
    unknown = (
        f"Not a ruling with readings in {ruleset.id}; those are: {known}."
        if optional
        else f"{ruleset.id} has no ruling with readings to choose."
    )
    members: dict[str, Any] = {ruling.id: _ruling_field(prefix, ruling) for ruling in optional}
    members["error_messages"] = {"unknown": unknown}
    members["__doc__"] = (
        f"Rule options of {ruleset.id}: ruling id to the reading in force (GET "
        f"/v1/rulesets/{ruleset.id} lists each ruling's readings and its default). A request "
        "leaves out any ruling it reads the default way; the answer names them all."
    )
    schema = _RULES[ruleset.id] = _named(f"{prefix}Rules", Schema, members)
    return schema


def rules_field(ruleset: Ruleset) -> fields.Nested:
    return fields.Nested(
        rules_schema(ruleset),
        metadata={
            "description": "Rule options: ruling id to reading id, for the rulings this "
            "ruleset reads more than one way; leave out for the defaults."
        },
    )


def rules_from(ruleset: Ruleset, args: dict[str, Any]) -> dict[str, str]:
    """The readings in force for a request (its ``rules`` taken out of ``args``)."""
    return ruleset.readings_in_force(args.pop("rules", None))


# --- envelope out ---------------------------------------------------------------------


class RollSchema(Schema):
    label = fields.String(required=True, metadata={"description": "What the dice were for"})
    notation = fields.String(required=True, metadata={"example": "3d6"})
    values = fields.List(fields.Integer(), required=True)
    total = fields.Integer(required=True)


class ModifierSchema(Schema):
    source = fields.String(required=True)
    value = fields.Integer(required=True)


class CheckSchema(Schema):
    roll = fields.String(required=True, metadata={"description": "Label of the roll"})
    natural = fields.Integer(required=True, metadata={"description": "The dice total"})
    applied = fields.List(fields.Nested(ModifierSchema), required=True)
    final = fields.Integer(required=True, metadata={"description": "Total after modifiers"})
    compared_with = fields.String(required=True)
    outcome = fields.String(required=True)


class DiceUsedSchema(Schema):
    mode = DICE_MODE.field(required=True)
    algorithm = fields.String()
    seed = fields.String()
    nonce = fields.Integer()
    seed_source = SEED_SOURCE.field()
    values = fields.List(fields.Integer())
    commitment = fields.String(metadata={"description": "Sealed: SHA-256 of the server seed"})
    client_seed = fields.String()
    reveal_after = date_time(metadata={"description": "Sealed: when the seed is revealed"})
    client_seed_sha256 = fields.String(
        metadata={
            "description": "Sealed with a bound token: the SHA-256 of the client seed the "
            "token binds (the roller committed to it before the seal); absent for an unbound "
            "token, whose holder could have tried other client seeds"
        }
    )


def _named(name: str, base: type[Schema], members: Mapping[str, Any]) -> type[Schema]:
    return type(name, (base,), dict(members))


class EnvelopeBase(Schema):
    ruleset = RULESET_ID.field(required=True, allow_none=True)
    step = fields.String(required=True)
    rolls = fields.List(fields.Nested(RollSchema), required=True)
    modifiers = fields.List(fields.Nested(CheckSchema), required=True)
    dice = fields.Nested(DiceUsedSchema, required=True)
    provenance = fields.Nested(ProvenanceSchema, required=True)
    receipt = receipt_field()


class OddsOutcomeBase(Schema):
    probability = fields.String(required=True, metadata={"example": "5/72"})
    p = fields.Float(required=True)


class OddsBase(Schema):
    ruleset = RULESET_ID.field(required=True)
    step = fields.String(required=True)


# --- ships named from a catalog or sent inline ------------------------------------------


def ship_reference(
    prefix: str,
    names: EnumType,
    catalog: Mapping[str, Any],
    card: type[Schema],
    state: type[Schema],
    ship: Callable[[Any, Any], Any],
    blank_state: Callable[[], Any],
) -> Callable[..., OneOf]:
    """A field factory: ``{"ship": name, "state"}`` or ``{"card": {...}, "state"}``.

    Makes the two schemas ``<prefix>NamedShipSchema`` and ``<prefix>InlineShipSchema`` once;
    each loads into ``ship(card, state)``, a missing state being ``blank_state()``.
    """

    def named(self: Schema, data: dict[str, Any], **_: Any) -> Any:
        return ship(catalog[names.canonical(data["ship"])], data["state"])

    def inline(self: Schema, data: dict[str, Any], **_: Any) -> Any:
        return ship(data["card"], data["state"])

    variants = [
        type(
            f"{prefix}NamedShipSchema",
            (Schema,),
            {
                "__doc__": "A catalog ship by name, with its state so far.",
                "ship": names.field(required=True),
                "state": fields.Nested(state, load_default=blank_state),
                "make": post_load(named),
            },
        ),
        type(
            f"{prefix}InlineShipSchema",
            (Schema,),
            {
                "__doc__": "A ship's card sent inline, with its state so far.",
                "card": fields.Nested(card, required=True),
                "state": fields.Nested(state, load_default=blank_state),
                "make": post_load(inline),
            },
        ),
    ]
    return lambda **kwargs: OneOf(variants, **kwargs)


# --- one helper registers a step --------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StepHTTP:
    """The HTTP face of one engine step."""

    name: str
    inputs: type[Schema]
    result: type[Schema]
    build: Callable[[dict[str, Any]], Any]
    example: Mapping[str, Any]
    odds_result: type[Schema] | None = None  # an /odds outcome's result, if not ``result``
    picture: Callable[[Mapping[str, Any]], str] | None = None  # Accept: image/svg+xml


class NoInputs(Schema):
    """The inputs of a step that needs nothing but dice (the request has only its envelope)."""


def no_input(_: dict[str, Any]) -> NoInput:
    """The StepHTTP ``build`` of a step that needs nothing but dice."""
    return NoInput()


def inputs(cls: Callable[..., Any]) -> Callable[[dict[str, Any]], Any]:
    """The StepHTTP ``build`` that passes the validated members to ``cls`` as they are."""
    return lambda args: cls(**args)


def _camel(text: str) -> str:
    return "".join(part.capitalize() for part in text.replace("_", "-").split("-"))


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
    args.pop("prev", None)
    readings = rules_from(rules, args) if rules is not None else None
    dice = args.pop("dice", None) or engine_dice.SeededDice(EXAMPLE_FRESH_SEED, generated=True)
    envelope = run_step(ruleset, step, build(args), dice, readings)
    envelope["provenance"] = example_provenance(path, dict(example))
    envelope["receipt"] = EXAMPLE_RECEIPT
    return envelope


def odds_answer(
    ruleset: Ruleset, step: Step, spec: StepHTTP, request: Schema
) -> dict[str, Any] | None:
    """The odds of the request example (its first outcomes), or none where it is refused."""
    example = {k: v for k, v in spec.example.items() if k != "dice"}
    args = request.load(example)
    readings = rules_from(ruleset, args)
    try:
        odds = step_odds(ruleset.id, step, spec.build(args), readings)
    except RuleError:
        return None
    odds["outcomes"] = odds["outcomes"][:ODDS_EXAMPLE_OUTCOMES]
    return odds


def operation_id(name: str) -> str:
    """A method name for generated clients: ``SalvoSoloTurn`` -> ``salvoSoloTurn``."""
    return name[:1].lower() + name[1:]


def register_steps(blp: Blueprint, ruleset: Ruleset, steps: list[StepHTTP]) -> None:
    """One POST endpoint per step (and its /odds where the step has one)."""
    for spec in steps:
        _register(blp, ruleset, spec)


def _register(blp: Blueprint, ruleset: Ruleset, spec: StepHTTP) -> None:
    # Request schemas go to blp.arguments as instances: given a class, webargs builds a new
    # schema on every request (about 40 us).
    step = ruleset.step(spec.name)
    base = _camel(ruleset.id) + _camel(step.name)
    request = _named(
        f"{base}Request",
        spec.inputs,
        {"dice": dice_field(), "prev": prev_field(), "rules": rules_field(ruleset)},
    )
    tags = {"ruleset": Const(ruleset.id, required=True), "step": Const(step.name, required=True)}
    echoed = fields.Nested(
        rules_schema(ruleset),
        required=True,
        metadata={
            "description": "The reading in force of every ruling with readings (defaults "
            "included), signed with the answer"
        },
    )
    response = _named(
        f"{base}Response",
        EnvelopeBase,
        {**tags, "rules": echoed, "result": fields.Nested(spec.result, required=True)},
    )

    def resolve(args: dict[str, Any]) -> Response:
        svg = spec.picture is not None and pictures.wants_svg()
        dice = dice_from(args)
        readings = rules_from(ruleset, args)
        envelope = run_step(ruleset.id, step, spec.build(args), dice, readings)
        count_rolls(ruleset.id, step.name, len(envelope["rolls"]))
        if svg and spec.picture is not None:
            return pictures.answer(envelope, spec.picture)
        return signed(envelope)

    path = f"{blp.url_prefix}/{step.name}"
    answer = example_answer(
        ruleset.id, step, spec.example, spec.build, request(), path, rules=ruleset
    )

    resolve.__name__ = f"{step.name.replace('-', '_')}"
    view = blp.doc(
        operationId=operation_id(base),
        summary=step.summary,
        description=f"{step.description} Dice: {step.dice}.",
        **(pictures.doc() if spec.picture is not None else {}),
    )(
        blp.response(200, response, example=answer)(
            blp.arguments(request(), example=dict(spec.example))(resolve)
        )
    )
    blp.route(f"/{step.name}", methods=["POST"])(view)

    if not step.odds:
        return
    odds_request = _named(f"{base}OddsRequest", spec.inputs, {"rules": rules_field(ruleset)})
    outcome = _named(
        f"{base}OddsOutcome",
        OddsOutcomeBase,
        {"result": fields.Nested(spec.odds_result or spec.result, required=True)},
    )
    odds_response = _named(
        f"{base}Odds",
        OddsBase,
        {**tags, "rules": echoed, "outcomes": fields.List(fields.Nested(outcome), required=True)},
    )
    odds_example = {k: v for k, v in spec.example.items() if k != "dice"}

    def odds(args: dict[str, Any]) -> Response:
        svg = pictures.wants_svg()
        readings = rules_from(ruleset, args)
        answer = step_odds(ruleset.id, step, spec.build(args), readings)
        return pictures.answer(answer, pictures.odds) if svg else json_response(answer)

    odds.__name__ = f"{step.name.replace('-', '_')}_odds"
    odds_view = blp.doc(
        operationId=operation_id(f"{base}Odds"),
        summary=f"Odds: {step.summary[0].lower()}{step.summary[1:]}",
        description="The exact distribution of this step's results for these inputs, "
        "over every face of every die, worked out by the same rules code that resolves a roll. "
        "No dice are rolled.",
        **pictures.doc(),
    )(
        blp.response(200, odds_response, example=odds_answer(ruleset, step, spec, odds_request()))(
            blp.arguments(odds_request(), example=odds_example)(odds)
        )
    )
    blp.route(f"/{step.name}/odds", methods=["POST"])(odds_view)
