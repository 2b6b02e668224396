"""The envelope around every step's result: what a request sends beside its inputs (its
rule options; dice are service/http/endpoints/dice_in.py's) and what every answer carries (the
ruleset and step, rolls, modifiers, dice used, readings in force, provenance, receipt)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from marshmallow import Schema, fields, validate

from ...engine.ruleset import Ruleset, Ruling
from ..document.components import COMPONENTS, EnumType, camel, component
from ..document.fields import date_time
from ..signing.receipts import ProvenanceSchema, receipt_field


class RulesetIdField(fields.String):
    """A ruleset's id, documented as a ``$ref`` to ``RulesetId``. Which ids it takes is the
    app's to say: a schema an app loads requests with is bound to the rulesets that app
    serves (``serving``); unbound (a response's schema, only documented) it takes any."""

    component = "RulesetId"

    def serving(self, ids: Sequence[str]) -> None:
        # A new list: a schema's copy of a field shares the class's list of validators.
        self.validators = [*self.validators, validate.OneOf(ids)]


class RulesetIdType:
    """The component ``RulesetId``: the rulesets an app serves, and no others. The members
    are each app's own (``members``), written into its document as it is made."""

    name = RulesetIdField.component

    def __init__(self, description: str) -> None:
        component(self.name, {"type": "string", "enum": [], "description": description})

    def field(self, **kwargs: Any) -> RulesetIdField:
        return RulesetIdField(**kwargs)

    def members(self, ids: Sequence[str]) -> dict[str, Any]:
        """The component as an app serving ``ids`` documents it."""
        return {**COMPONENTS[self.name], "enum": list(ids)}


RULESET_ID = RulesetIdType("A ruleset this service resolves (GET /v1/rulesets lists them).")


S = TypeVar("S", bound=Schema)


def serving(schema: S, ids: Sequence[str]) -> S:
    """``schema`` (an instance, the app's own) taking only the ruleset ids ``ids``."""
    for field in schema.fields.values():
        if isinstance(field, RulesetIdField):
            field.serving(ids)
    return schema


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


def named(name: str, base: type[Schema], members: Mapping[str, Any]) -> type[Schema]:
    """A schema class made at import: ``name`` is its component's name in the document."""
    return type(name, (base,), dict(members))


# --- rule options in (and echoed out) ------------------------------------------------------


def _ruling_field(prefix: str, ruling: Ruling) -> fields.Field[Any]:
    readings = EnumType(
        f"{prefix}{camel(ruling.id)}Reading",
        (reading.id for reading in ruling.readings),
        f"The readings of ruling `{ruling.id}`. "
        + " ".join(
            f"`{r.id}`{' (default)' if r.default else ''}: {r.text}" for r in ruling.readings
        ),
    )
    return readings.field(metadata={"description": ruling.question})


# By the Ruleset itself (held beside its schema, so its id() is not reused): two rulesets
# of one id, served by two apps of one process, each have their own.
_RULES: dict[int, tuple[Ruleset, type[Schema]]] = {}


def rules_schema(ruleset: Ruleset) -> type[Schema]:
    """``<Ruleset>Rules``: one optional enum member per ruling with readings, made once.

    The request's ``rules`` and the answer's echo are this one component, so an answer's
    readings can be sent back as they are. An unknown ruling names the ones there are.
    """
    found = _RULES.get(id(ruleset))
    if found is not None:
        return found[1]
    prefix = camel(ruleset.id)
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
    schema = named(f"{prefix}Rules", Schema, members)
    _RULES[id(ruleset)] = (ruleset, schema)
    return schema


def rules_field(ruleset: Ruleset) -> fields.Nested:
    return fields.Nested(
        rules_schema(ruleset),
        metadata={
            "description": "Rule options: ruling id to reading id, for the rulings this "
            "ruleset reads more than one way; leave out for the defaults."
        },
    )


def rules_echo_field(ruleset: Ruleset) -> fields.Nested:
    return fields.Nested(
        rules_schema(ruleset),
        required=True,
        metadata={
            "description": "The reading in force of every ruling with readings (defaults "
            "included), signed with the answer"
        },
    )


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
