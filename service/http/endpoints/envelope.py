"""The envelope around every step's result: what a request sends beside its inputs (its
rule options; dice are service/http/endpoints/dice_in.py's) and what every answer carries (the
ruleset and step, rolls, modifiers, dice used, readings in force, provenance, receipt)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from marshmallow import Schema, fields, validate

from ...engine.envelope import Envelope, Odds, OddsOutcome
from ...engine.ruleset import Ruleset, Ruling
from ..document.components import COMPONENTS, EnumType, camel, component
from ..document.derive import result_schema
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


# Each answer's members are derived from the engine's types (engine/envelope.py); what the
# HTTP layer adds is its own: the ruleset as the app's ``RulesetId``, the provenance and the
# receipt it signs. Each step's answer extends these bases with its result (``named``).

EnvelopeBase = named(
    "EnvelopeBase",
    result_schema(Envelope),
    {
        "ruleset": RULESET_ID.field(required=True, allow_none=True),
        "provenance": fields.Nested(ProvenanceSchema, required=True),
        "receipt": receipt_field(),
    },
)
OddsOutcomeBase = result_schema(OddsOutcome)
OddsBase = named("OddsBase", result_schema(Odds), {"ruleset": RULESET_ID.field(required=True)})
