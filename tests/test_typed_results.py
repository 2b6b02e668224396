"""Each step's typed result (service/rulesets/<ruleset>/results.py) and its answer schema agree.

Where a ruleset's result schemas are derived from its typed results
(service/http/document/derive.py), this checks the derivation: what the document serves is
what the TypedDict says.

For every step of every ruleset (the test rulesets too): the step function is annotated to
return the TypedDict its ruleset's ``RulesetAPI.results`` names, and that TypedDict names
the same keys (required and not) as the step's answer ``result`` component in the served
OpenAPI document, recursively: every nested object component has a TypedDict of the same
name with the same keys, every enum the same values as its Literal, every list, map, union
and null in the same place.
"""

import importlib
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import pytest
from flask import Flask
from marshmallow import ValidationError

from service.engine import catalog, dice_requests, envelope, shape
from service.engine.typed import (
    Doc,
    Fixed,
    JsonOf,
    Limits,
    Via,
    fixed_set,
    pattern_of,
    table_of,
    values,
)
from service.http.document.derive import result_schema, shape_schema
from service.http.document.fields import OneOf
from service.http.endpoints import meta
from service.http.endpoints.steps import StepHTTP
from service.http.fast import problems
from service.rulesets.api import registered
from service.rulesets.fleet_action import results
from service.rulesets.salvo_grid import fleet
from service.rulesets.salvo_grid import results as grid_results
from tests.fixtures.tiny_ruleset import EVERY

# Every registered ruleset, and the test rulesets served beside them (every_app).
RULESETS = {api.id: (api.ruleset, api.results) for api in EVERY}

Shape = tuple[Any, ...]
_BASES: dict[object, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _union(members: list[Shape]) -> Shape:
    flat: set[Shape] = set()
    for member in members:
        flat |= set(member[1]) if member[0] == "union" else {member}
    return next(iter(flat)) if len(flat) == 1 else ("union", frozenset(flat))


def spec_shape(node: dict[str, Any], components: dict[str, Any]) -> Shape:
    """A schema node as a comparable shape; object components stay references by name."""
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        target = components[name]
        return ("object", name) if "properties" in target else spec_shape(target, components)
    if "oneOf" in node or "anyOf" in node:
        alternatives = node["oneOf"] if "oneOf" in node else node["anyOf"]
        return _union([spec_shape(n, components) for n in alternatives])
    if "const" in node:
        return ("enum", frozenset([node["const"]]))
    kinds = node.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    members: list[Shape] = []
    if "null" in kinds or None in node.get("enum", ()):
        members.append(("null",))
    if "enum" in node:
        members.append(("enum", frozenset(v for v in node["enum"] if v is not None)))
    else:
        for kind in kinds:
            if kind == "array":
                members.append(("list", spec_shape(node.get("items", {}), components)))
            elif kind == "object":
                assert "properties" not in node, f"inline object, not a component: {node}"
                values = node.get("additionalProperties")
                assert isinstance(values, dict), f"an object of no known shape: {node}"
                members.append(("map", spec_shape(values, components)))
            elif kind != "null":
                members.append((kind,))
    return _union(members)


def hint_shape(hint: Any) -> Shape:
    """A type hint as a comparable shape; TypedDicts and shapes stay references by name."""
    origin = typing.get_origin(hint)
    if typing.is_typeddict(hint):
        return ("object", hint.__name__)
    if shape.is_shape(hint):
        return ("object", shape.component_name(hint))
    if origin is Annotated:
        base, *extras = typing.get_args(hint)
        for extra in extras:
            if isinstance(extra, JsonOf):
                if extra.written:
                    WRITTEN.update(shape.component_name(cls) for cls in extra.resolve_all())
                objects = [("object", shape.component_name(cls)) for cls in extra.resolve_all()]
                nulls = [("null",)] if type(None) in typing.get_args(base) else []
                return _union([*objects, *nulls])
            if isinstance(extra, Via):
                return hint_shape(extra.json)
        return hint_shape(base)
    if origin is NotRequired:
        return hint_shape(typing.get_args(hint)[0])
    if origin is Literal:
        return ("enum", frozenset(typing.get_args(hint)))
    if origin in (typing.Union, types.UnionType):
        return _union([hint_shape(a) for a in typing.get_args(hint)])
    if hint is type(None) or hint is None:
        return ("null",)
    if origin in (list, tuple):
        return ("list", hint_shape(typing.get_args(hint)[0]))
    if origin is dict:
        key, value = typing.get_args(hint)
        assert key is str, f"a map keyed by {key}"
        return ("map", hint_shape(value))
    assert hint in _BASES, f"a type the document cannot state: {hint!r}"
    return (_BASES[hint],)


def _objects(shape: Shape) -> Iterator[str]:
    if shape[0] == "object":
        yield shape[1]
    elif shape[0] in ("list", "map"):
        yield from _objects(shape[1])
    elif shape[0] == "union":
        for member in shape[1]:
            yield from _objects(member)


def differences(typed: type, component: str, components: dict[str, Any]) -> list[str]:
    """Where a TypedDict and a result component (and everything nested in them) disagree."""
    found: list[str] = []
    typed_by_name: dict[str, type] = {typed.__name__: typed}
    todo, done = [(typed.__name__, component)], set()
    while todo:
        pair = todo.pop()
        if pair in done:
            continue
        done.add(pair)
        name, comp = pair
        if name != comp:
            found.append(f"{comp}: the typed result is named {name}")
        td = typed_by_name[name]
        schema = components[comp]
        required = set(schema.get("required", ()))
        optional = set(schema["properties"]) - required
        ours_required, ours_optional, hints = _keys(td)
        if ours_required != required:
            found.append(
                f"{comp}: required keys {sorted(required)} in the document, "
                f"{sorted(ours_required)} in {name}"
            )
        if ours_optional != optional:
            found.append(
                f"{comp}: optional keys {sorted(optional)} in the document, "
                f"{sorted(ours_optional)} in {name}"
            )
        for key in set(hints) & set(schema["properties"]):
            ours = hint_shape(hints[key])
            theirs = spec_shape(schema["properties"][key], components)
            if ours != theirs:
                found.append(f"{comp}.{key}: {theirs} in the document, {ours} in {name}")
                continue
            for nested in _objects(ours):
                typed_by_name.setdefault(nested, _typeddict(hints[key], nested))
                if name in WRITTEN:  # a shape in a written one is written too
                    WRITTEN.add(nested)
                todo.append((nested, nested))
    return found


# The shapes only ever written (``JsonOf(..., written=True)``), as the walk meets them: all
# their members are in what ``to_json`` writes, an Omitted one aside.
WRITTEN: set[str] = set()


def _keys(typed: type) -> tuple[set[str], set[str], dict[str, Any]]:
    """The required keys, the optional keys and each key's type, of a TypedDict or a shape
    (a shape's member left out but never null is its type without None)."""
    if shape.is_shape(typed):
        members = shape.members(typed)
        hints = {m.key: shape.without_none(m.hint) if m.omitted else m.hint for m in members}
        if shape.component_name(typed) in WRITTEN:
            required = {m.key for m in members if not m.omitted}
        else:
            required = {m.key for m in members if m.required}
        return required, {m.key for m in members} - required, hints
    hints = typing.get_type_hints(typed, include_extras=True)
    return set(typed.__required_keys__), set(typed.__optional_keys__), hints  # type: ignore[attr-defined]


def _typeddict(hint: Any, name: str) -> type:
    """The TypedDict or shape called ``name`` somewhere inside ``hint``."""
    if typing.is_typeddict(hint) and hint.__name__ == name:
        return typing.cast(type, hint)
    if shape.is_shape(hint) and shape.component_name(hint) == name:
        return typing.cast(type, hint)
    if typing.get_origin(hint) is Annotated:
        for extra in typing.get_args(hint)[1:]:
            if isinstance(extra, JsonOf):
                for cls in extra.resolve_all():
                    try:
                        return _typeddict(cls, name)
                    except LookupError:
                        pass
            if isinstance(extra, Via):
                return _typeddict(extra.json, name)
    if shape.is_shape(hint):
        for member in shape.members(hint):
            try:
                return _typeddict(member.hint, name)
            except LookupError:
                pass
    for arg in typing.get_args(hint):
        try:
            return _typeddict(arg, name)
        except LookupError:
            pass
    raise LookupError(name)


@pytest.fixture(scope="module")
def document(every_app: Flask) -> dict[str, Any]:
    served: dict[str, Any] = every_app.test_client().get("/openapi.json").get_json()
    return served


def _result_components(document: dict[str, Any], ruleset: str, step: str) -> list[str]:
    """The component of a step's result, or of each variant of a result told apart by a
    member (``oneOf``)."""
    route = RULESETS[ruleset][0].step(step).route
    operation = document["paths"][f"/v1/rulesets/{ruleset}/{route}"]["post"]
    answer = operation["responses"]["200"]["content"]["application/json"]["schema"]
    envelope = document["components"]["schemas"][answer["$ref"].rsplit("/", 1)[-1]]
    result = envelope["properties"]["result"]
    return [ref["$ref"].rsplit("/", 1)[-1] for ref in result.get("oneOf", [result])]


STEPS = [
    (ruleset_id, step.name)
    for ruleset_id, (ruleset, _) in RULESETS.items()
    for step in ruleset.steps
]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_step_has_a_typed_result(ruleset_id: str) -> None:
    ruleset, typed = RULESETS[ruleset_id]
    assert set(typed) == {step.name for step in ruleset.steps}


@pytest.mark.parametrize(("ruleset_id", "step_name"), STEPS)
def test_the_step_function_returns_its_typed_result(ruleset_id: str, step_name: str) -> None:
    ruleset, typed = RULESETS[ruleset_id]
    returned = typing.get_type_hints(ruleset.step(step_name).resolve)["return"]
    assert returned is typed[step_name]


@pytest.mark.parametrize(("ruleset_id", "step_name"), STEPS)
def test_typed_result_and_schema_name_the_same_fields(
    document: dict[str, Any], ruleset_id: str, step_name: str
) -> None:
    typed = RULESETS[ruleset_id][1][step_name]
    variants = typing.get_args(typed) if typing.get_origin(typed) is types.UnionType else (typed,)
    components = _result_components(document, ruleset_id, step_name)
    assert [variant.__name__ for variant in variants] == components
    for variant, component in zip(variants, components, strict=True):
        assert differences(variant, component, document["components"]["schemas"]) == []


# --- the check itself can fail -------------------------------------------------------------


class SalvoSoloShipState(TypedDict):  # a drifted copy: a key optional in the document required
    flotation_hits: int
    turret_hits: NotRequired[int]
    speed_hits: NotRequired[int]
    fire_control: NotRequired[Literal["ready", "lost-next-turn", "lost-this-turn"]]


class SalvoSoloShipStatus(TypedDict):  # a drifted copy: can_fire missing, speed a string
    name: str
    state: SalvoSoloShipState
    speed: str
    sunk: bool
    must_offer_broadside: bool


class SalvoSoloDamageResult(TypedDict):
    ship: SalvoSoloShipStatus
    newly_sunk: bool


def test_a_drifted_typed_result_is_caught_however_deep(document: dict[str, Any]) -> None:
    found = differences(
        SalvoSoloDamageResult, "SalvoSoloDamageResult", document["components"]["schemas"]
    )
    assert any("SalvoSoloShipStatus: required keys" in f and "can_fire" in f for f in found)
    assert any(f.startswith("SalvoSoloShipStatus.speed: ('integer',)") for f in found)
    assert any(f.startswith("SalvoSoloShipState: required keys") for f in found)


def test_a_wrong_enum_or_a_lost_null_is_caught(document: dict[str, Any]) -> None:
    class SalvoSoloManeuverResult(TypedDict):
        range: Literal["Short", "Medium", "Long", "Extreme"]  # Medium-Long and null lost
        range_change: int
        out_of_range: bool
        game_over: bool
        player_guns_bearing: Literal["bow", "broadside", "stern"]
        enemy_guns_bearing: Literal["bow", "broadside", "stern"]

    found = differences(
        SalvoSoloManeuverResult, "SalvoSoloManeuverResult", document["components"]["schemas"]
    )
    assert [f.split(":")[0] for f in found] == ["SalvoSoloManeuverResult.range"]


# --- derived, not written twice ------------------------------------------------------------

# The rulesets whose result schemas are derived from their typed results (each step's
# StepHTTP names its TypedDict; no result schema is written by hand): every registered one,
# read from the registry so that a ruleset added later is checked too.
DERIVED = tuple(api.id for api in registered())


def _step_specs(ruleset_id: str) -> list[StepHTTP]:
    module = importlib.import_module(f"service.rulesets.{ruleset_id.replace('-', '_')}.api")
    specs: list[StepHTTP] = module.STEPS
    return specs


@pytest.mark.parametrize("ruleset_id", DERIVED)
def test_each_result_schema_is_derived_from_its_typed_result(ruleset_id: str) -> None:
    typed = RULESETS[ruleset_id][1]
    for spec in _step_specs(ruleset_id):
        assert spec.result is typed[spec.name], spec.name
        assert spec.odds_result is None or typing.is_typeddict(spec.odds_result), spec.name


@pytest.mark.parametrize("ruleset_id", DERIVED)
def test_each_fixed_set_is_named_as_its_definition(ruleset_id: str) -> None:
    module = importlib.import_module(f"service.rulesets.{ruleset_id.replace('-', '_')}.results")
    named = {
        alias: value
        for alias, value in vars(module).items()
        if typing.get_origin(value) is typing.Annotated
        and any(isinstance(extra, Fixed) for extra in typing.get_args(value)[1:])
    }
    assert named, f"{ruleset_id} defines no fixed set"
    for alias, value in named.items():
        assert fixed_set(value)[0].name == alias


def test_a_description_reaches_the_document(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    winner = schemas["FleetActionInitiativeResult"]["properties"]["winner"]
    assert winner == {
        "$ref": "#/components/schemas/FleetActionPlayer",
        "description": "Goes second",
    }
    crew = schemas["FleetActionShipStatus"]["properties"]["crew"]
    assert crew == {"oneOf": [{"$ref": "#/components/schemas/FleetActionCrew"}, {"type": "null"}]}
    assert schemas["FleetActionPlayer"]["enum"] == list(values(results.FleetActionPlayer))


def test_a_named_string_form_is_one_component(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    square = pattern_of(grid_results.SalvoGridSquare)
    assert schemas["SalvoGridRadar"]["properties"]["buoy"] == {
        "$ref": f"#/components/schemas/{square.name}"
    }
    assert schemas["SalvoGridRadar"]["properties"]["contact"] == {
        "oneOf": [{"$ref": f"#/components/schemas/{square.name}"}, {"type": "null"}],
        "description": "The revealed square",
    }
    assert schemas[square.name]["pattern"] == square.pattern
    with pytest.raises(TypeError):
        pattern_of(str)


# The square's form without words of its own (the same component).
_SQUARE = replace(pattern_of(grid_results.SalvoGridSquare), invalid=None)


@dataclass(frozen=True)
class Aimed:
    """A shape with a member of a named string form without words of its own, and one of
    a form with its own words, held as another value (``Via``)."""

    code: Annotated[str, _SQUARE]
    square: Annotated[tuple[int, int], Via(grid_results.SalvoGridSquare, fleet.parse, fleet.name)]


def test_a_named_string_form_in_a_request_is_checked_whole_in_its_own_words() -> None:
    schema = shape_schema(Aimed)()
    assert schema.load({"code": "J10", "square": "C5"}) == Aimed("J10", (2, 4))
    with pytest.raises(ValidationError) as refused:
        schema.load({"code": "C5\n", "square": 35})
    assert refused.value.messages == {
        "code": [f"Not a SalvoGridSquare: {_SQUARE.description}"],
        "square": [grid_results.NOT_A_SQUARE],
    }
    with pytest.raises(ValidationError) as refused:
        schema.load({"code": "K1", "square": "A11"})
    assert set(refused.value.messages) == {"code", "square"}


def test_a_table_that_drifts_from_its_fixed_set_is_refused() -> None:
    crews = {name: 0 for name in values(results.FleetActionCrew)}
    assert table_of(results.FleetActionCrew, crews) is crews
    with pytest.raises(ValueError, match="FleetActionCrew"):
        table_of(results.FleetActionCrew, {**crews, "Legendary": 2})
    with pytest.raises(ValueError, match="FleetActionCrew"):
        table_of(results.FleetActionCrew, dict(reversed(crews.items())))


def test_a_shape_the_document_cannot_state_is_refused() -> None:
    class Unnamed(TypedDict):
        side: Literal["A", "B"]  # a fixed set with no name: no component to refer to

    class Keyed(TypedDict):
        counts: dict[int, int]

    for typed in (Unnamed, Keyed):
        with pytest.raises(TypeError):
            result_schema(typed)


def test_a_derived_schema_names_what_its_typed_result_requires() -> None:
    class Partial(TypedDict):
        hits: int
        note: NotRequired[Annotated[str | None, Doc("Why")]]

    fields = result_schema(Partial)().fields
    assert fields["hits"].required and not fields["hits"].allow_none
    assert not fields["note"].required and fields["note"].allow_none
    assert fields["note"].metadata == {"description": "Why"}


def test_a_union_told_apart_by_a_tag_is_documented_with_it(document: dict[str, Any]) -> None:
    class Opened(TypedDict):
        phase: Literal["opened"]
        by: str

    class Closed(TypedDict):
        phase: Literal["closed"]

    class Untagged(TypedDict):
        by: str

    class Log(TypedDict):
        events: list[Opened | Closed]
        last: Opened | Untagged

    fields = result_schema(Log)().fields
    events = fields["events"].inner  # type: ignore[attr-defined]
    assert isinstance(events, OneOf) and events.discriminator == "phase"
    assert isinstance(fields["last"], OneOf) and fields["last"].discriminator is None
    turn = document["components"]["schemas"]["SalvoSoloTurnResult"]["properties"]["events"]
    assert turn["items"]["discriminator"]["propertyName"] == "phase"
    assert turn["items"]["discriminator"]["mapping"]["fire"] == (
        "#/components/schemas/SalvoSoloFireEvent"
    )


def test_limits_stated_in_place_are_checked() -> None:
    class Shot(TypedDict):
        hits: Annotated[str, Limits(pattern=r"^[FTS]*$")]
        interval: Annotated[list[float], Limits(length=2)]

    schema = result_schema(Shot)()
    assert schema.validate({"hits": "FFS", "interval": [0.1, 0.2]}) == {}
    assert set(schema.validate({"hits": "FX", "interval": [0.1]})) == {"hits", "interval"}


# --- the envelope, the catalog, the dice a request sends and a problem ---------------------


@pytest.mark.parametrize(
    "typed",
    [
        envelope.Roll,
        envelope.Check,
        envelope.DiceUsed,
        catalog.StepInfo,
        catalog.RulesetDetail,
        catalog.RulesetList,
        dice_requests.SeededDice,
        dice_requests.SuppliedDice,
        dice_requests.SealedDice,
        problems.Problem,
        meta.Health,
    ],
)
def test_the_envelope_and_catalog_types_are_their_components(
    document: dict[str, Any], typed: type
) -> None:
    """Each is the component of its name (a ruling, its readings and a check's modifiers
    as ``to_json`` writes them); a ruleset's id is the app's RulesetId, no plain string."""
    found = differences(typed, typed.__name__, document["components"]["schemas"])
    rulesets = {"RulesetId"} & set(document["components"]["schemas"])
    assert rulesets
    ids = [f for f in found if f.split(":")[0] in ("RulesetDetail.id", "RulesetSummary.id")]
    assert all("('enum', frozenset({" in f and "('string',) in" in f for f in ids)
    assert [f for f in found if f not in ids] == []
