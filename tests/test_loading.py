"""A request schema's planned load gives what marshmallow's load gives, or leaves it to it."""

from __future__ import annotations

import inspect
import json
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from marshmallow import Schema, ValidationError, fields, pre_load, validate, validates_schema

from service.http.document.fields import OneOf
from service.http.fast.loading import _passes_through, _schema_plan, _test_of, planned

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


def request_schemas(app: Flask) -> dict[str, Schema]:
    """Each POST path served through a planned load, with its request schema."""
    found = {}
    for rule in app.url_map.iter_rules():
        if "POST" not in (rule.methods or ()):
            continue
        view = app.view_functions[rule.endpoint]
        held = inspect.getclosurevars(view).nonlocals
        if isinstance(held.get("schema"), Schema) and "load" in held:
            found[rule.rule] = held["schema"]
    return found


def shape(value: Any) -> Any:
    """A loaded value as plain data, objects by their class and attributes."""
    if isinstance(value, Iterator):  # a dice source's stream of bytes, not yet read
        return "iterator"
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [type(value).__name__, [shape(item) for item in value]]
    if hasattr(value, "__dict__"):
        return [type(value).__name__, shape(vars(value))]
    if hasattr(value, "__slots__"):
        held = {name: getattr(value, name) for name in value.__slots__ if hasattr(value, name)}
        return [type(value).__name__, shape(held)]
    return [type(value).__name__, value]


def outcome(load: Any, body: Any) -> Any:
    try:
        return ("loaded", shape(load(body)))
    except ValidationError as error:
        return ("refused", error.messages)
    except Exception as error:  # a sealed token that cannot roll, as the view would see it
        return ("raised", type(error).__name__, str(error))


@pytest.fixture(scope="module")
def schemas(app: Flask) -> dict[str, Schema]:
    return request_schemas(app)


@pytest.fixture(scope="module")
def examples(app: Flask) -> dict[str, Any]:
    document = app.test_client().get("/openapi.json").get_json()
    return {
        path: item["post"]["requestBody"]["content"]["application/json"]["example"]
        for path, item in document["paths"].items()
        if "post" in item
    }


def snapshot_bodies() -> list[tuple[str, dict[str, Any]]]:
    """The requests of the trail snapshots (ruleset, step and inputs in each key)."""
    bodies = []
    for file in sorted(SNAPSHOTS.glob("*.json")):
        for key in json.loads(file.read_text()):
            _, step, inputs = key.split(" ", 2)
            body = {**json.loads(inputs), "dice": {"seed": "loading", "nonce": 3}}
            bodies.append((f"/v1/rulesets/{file.stem}/{step}", body))
    return bodies


def test_every_request_schema_of_a_step_or_roll_is_planned(schemas: dict[str, Schema]) -> None:
    assert len(schemas) >= 50
    unplanned = [path for path, schema in schemas.items() if planned(schema) == schema.load]
    assert unplanned == []


def test_every_example_and_snapshot_request_is_loaded_the_same_by_the_plan_itself(
    app: Flask, schemas: dict[str, Schema], examples: dict[str, Any]
) -> None:
    cases = [(path, examples[path]) for path in schemas]
    cases += [(path, body) for path, body in snapshot_bodies() if path in schemas]
    assert len(cases) > 120
    with app.test_request_context():
        for path, body in cases:
            schema = schemas[path]
            expected = shape(schema.load(body))
            # The plan alone (no fallback): it takes every valid body it is given here.
            assert shape(_schema_plan(schema)(body, None, None)) == expected, path
            assert shape(planned(schema)(body)) == expected, path


ODD_VALUES: list[Any] = [
    None,
    True,
    -1,
    0,
    7.0,
    7.5,
    2**63,
    "",
    "x" * 300,
    "Ajax",
    [],
    [None],
    [1, 2, 3],
    {},
    {"ship": "Ajax"},
    {"seed": "s"},
    {"values": [1, 2]},
    {"sealed": "token", "client_seed": "c"},
    -0.5,
    math.nan,
    math.inf,
    "\ud800",
]


def mutated(value: Any, rng: random.Random) -> Any:
    """``value`` with one member replaced, dropped, added or changed somewhere in it."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        body = dict(value)
        key = rng.choice(list(body))
        choice = rng.random()
        if choice < 0.25:
            del body[key]
        elif choice < 0.4:
            body[rng.choice(["extra", key.upper(), ""])] = rng.choice(ODD_VALUES)
        elif choice < 0.65:
            body[key] = rng.choice(ODD_VALUES)
        else:
            body[key] = mutated(body[key], rng)
        return body
    if isinstance(value, list) and value and rng.random() < 0.7:
        items = list(value)
        choice = rng.random()
        if choice < 0.3:
            items.append(rng.choice(items))
        elif choice < 0.5:
            items.pop(rng.randrange(len(items)))
        else:
            at = rng.randrange(len(items))
            items[at] = mutated(items[at], rng) if rng.random() < 0.5 else rng.choice(ODD_VALUES)
        return items
    return rng.choice(ODD_VALUES)


def test_changed_bodies_are_loaded_or_refused_word_for_word_as_marshmallow_does(
    app: Flask, schemas: dict[str, Schema], examples: dict[str, Any]
) -> None:
    rng = random.Random(20261202)
    compared = loaded = 0
    with app.test_request_context():
        for path, schema in schemas.items():
            load = planned(schema)
            for _ in range(40):
                body = mutated(examples[path], rng)
                expected = outcome(schema.load, body)
                assert outcome(load, body) == expected, (path, body)
                compared += 1
                loaded += expected[0] == "loaded"
    assert compared >= 2000
    assert loaded >= 200  # some changes are still valid bodies: those took the plan


class WithPreLoad(Schema):
    name = fields.String(required=True)

    @pre_load
    def trim(self, data: Any, **_: Any) -> Any:
        return {**data, "name": data["name"].strip()} if isinstance(data, dict) else data


class WithSchemaCheck(Schema):
    low = fields.Integer(required=True)
    high = fields.Integer(required=True)

    @validates_schema
    def ordered(self, data: dict[str, Any], **_: Any) -> None:
        if data["low"] > data["high"]:
            raise ValidationError("low must not be above high")


class Shouting(fields.String):
    def deserialize(self, value: Any, attr: Any = None, data: Any = None, **kwargs: Any) -> Any:
        return str(super().deserialize(value, attr, data, **kwargs)).upper()


class WithOwnDeserialize(Schema):
    name = Shouting(required=True)


class WithInclude(Schema):
    class Meta:
        unknown = "include"

    name = fields.String()


@pytest.mark.parametrize(
    ("schema", "body", "expected"),
    [
        (WithPreLoad(), {"name": "  Ajax "}, {"name": "Ajax"}),
        (WithSchemaCheck(), {"low": 2, "high": 1}, None),
        (WithOwnDeserialize(), {"name": "ajax"}, {"name": "AJAX"}),
        (WithInclude(), {"name": "a", "extra": 1}, {"name": "a", "extra": 1}),
    ],
    ids=["pre-load-hook", "schema-validator", "field-own-deserialize", "unknown-included"],
)
def test_a_schema_the_plan_does_not_cover_is_loaded_by_marshmallow_itself(
    schema: Schema, body: dict[str, Any], expected: dict[str, Any] | None
) -> None:
    load = planned(schema)
    assert load == schema.load
    if expected is None:
        with pytest.raises(ValidationError):
            load(body)
    else:
        assert load(body) == expected


class Ship(Schema):
    name = fields.String(required=True)
    speed = fields.Integer(load_default=lambda: 4)
    note = fields.String(allow_none=True, data_key="remark")


class Fleet(Schema):
    flagship = fields.Nested(Ship, required=True)
    ships = fields.List(fields.Nested(Ship), load_default=list)


@pytest.mark.parametrize(
    "body",
    [
        {"flagship": {"name": "Ajax"}},
        {"flagship": {"name": "Ajax", "remark": None}, "ships": [{"name": "Exeter", "speed": 2}]},
        {"flagship": {"name": "Ajax", "note": "x"}},  # the attribute name is not its key
        {"flagship": {"name": "Ajax"}, "ships": [None]},
        {"flagship": [{"name": "Ajax"}]},
        {"flagship": {"name": "Ajax", "speed": "4"}},
        {"ships": []},
    ],
)
def test_defaults_keys_nulls_and_nesting_load_as_marshmallow_loads_them(
    body: dict[str, Any],
) -> None:
    schema = Fleet()
    assert outcome(planned(schema), body) == outcome(schema.load, body)


def request_fields(schemas: dict[str, Schema]) -> list[fields.Field[Any]]:
    """Every field of the request schemas, nested, list items and one-of variants too."""
    found: dict[int, fields.Field[Any]] = {}
    seen: set[int] = set()

    def walk(field: fields.Field[Any]) -> None:
        found.setdefault(id(field), field)
        if isinstance(field, fields.Nested):
            walk_schema(field.schema)
        if isinstance(field, fields.List):
            walk(field.inner)
        if isinstance(field, OneOf):
            for _, variant in field.variants:
                walk_schema(variant)

    def walk_schema(schema: Schema) -> None:
        if id(schema) not in seen:
            seen.add(id(schema))
            for field in schema.load_fields.values():
                walk(field)

    for schema in schemas.values():
        walk_schema(schema)
    return list(found.values())


EDGE_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    6,
    7,
    12,
    20,
    99,
    10**6,
    2**53 + 1,
    2**63,
    -(2**63),
    10**400,
    0.0,
    -0.0,
    0.5,
    1.0,
    7.0,
    12.5,
    1e-300,
    1e308,
    -1e308,
    math.inf,
    -math.inf,
    math.nan,
    "",
    "a",
    "A1",
    "Long",
    "Ajax",
    "x" * 40,
    "x" * 61,
    "x" * 300,
    "\ud800",
    "1",
    [],
    [1],
    [None] * 3,
    list(range(30)),
    {},
    {"a": 1},
]

MADE_VALIDATORS: list[Any] = [
    validate.Range(min=0, max=10),
    validate.Range(min=0, max=10, min_inclusive=False),
    validate.Range(min=0, max=10, max_inclusive=False),
    validate.Range(min=0.5, max=12.5, min_inclusive=False, max_inclusive=False),
    validate.Range(min=1),
    validate.Range(max=7),
    validate.Range(min=-math.inf, max=math.inf),
    validate.Range(min=math.nan, max=10),
    validate.Range(min=10, max=0),
    validate.Length(min=1, max=60),
    validate.Length(max=3),
    validate.Length(min=2),
    validate.Length(equal=2),
    validate.Length(equal=0),
    validate.OneOf(("Long", "Ajax")),
    validate.OneOf({"a", "A1"}),
    validate.Regexp(r"[A-J]\d"),
    validate.Regexp(r"x*$"),
    validate.And(validate.Range(min=1, max=7), validate.Range(min=6)),
]

KINDS = (bool, int, float, str, list)


def bounds_around(validator: Any) -> list[Any]:
    """Values just inside, on and just outside a validator's bounds."""
    near: list[Any] = []
    for bound in (getattr(validator, name, None) for name in ("min", "max", "equal")):
        if isinstance(bound, int | float) and not isinstance(bound, bool) and math.isfinite(bound):
            for step in (-1, -0.5, 0, 0.5, 1):
                near += [bound + step, float(bound + step)]
                if isinstance(bound, int) and 0 <= bound + step <= 10_000 and step == int(step):
                    size = int(bound + step)
                    near += ["x" * size, [0] * size]
    return near


def validators_to_hold(schemas: dict[str, Schema]) -> Iterator[tuple[Any, type, Any]]:
    """Each validator (made here, or of a request field) with each kind the plan has a
    test of it for, and that test."""
    found = {id(each): each for each in MADE_VALIDATORS}
    for field in request_fields(schemas):
        found.update((id(each), each) for each in field.validators)
    for validator in found.values():
        for kind in KINDS:
            test = _test_of(validator, kind)
            if test is not None:
                yield validator, kind, test


def test_the_plan_has_its_own_test_of_every_marshmallow_validator_of_a_request_field(
    schemas: dict[str, Schema],
) -> None:
    tested = untested = 0
    for field in request_fields(schemas):
        kind = list if isinstance(field, fields.List) else (_passes_through(field) or (None,))[0]
        for validator in field.validators:
            if type(validator).__module__ != validate.__name__:
                continue  # a function of the service's own: the plan runs it as it is
            assert kind is not None, field
            assert _test_of(validator, kind) is not None, (field, validator)
            tested += 1
        untested += not field.validators
    assert tested > 500
    assert untested > 100


def test_a_value_the_plans_test_passes_is_one_the_validator_accepts(
    schemas: dict[str, Schema],
) -> None:
    held = passed = refused = 0
    for validator, kind, test in validators_to_hold(schemas):
        values = [value for value in EDGE_VALUES + bounds_around(validator) if type(value) is kind]
        if isinstance(validator, validate.OneOf):
            values += [str(choice) for choice in validator.choices]
        if isinstance(validator, validate.Regexp):
            values += ["A1", "J9", "B", "A12", "xx", "xy"]
        for value in values:
            try:
                validator(value)
            except ValidationError:
                accepted = False
            else:
                accepted = True
            if test(value):
                assert accepted, (validator, value)
                passed += 1
            else:
                refused += not accepted
            held += 1
    assert held > 3000
    assert passed > 1000  # the tests are of use: most values a validator accepts pass them
    assert refused > 1000


def test_a_value_a_conversion_is_said_to_hand_back_as_it_is_comes_back_the_very_object(
    schemas: dict[str, Schema],
) -> None:
    handed = 0
    for field in request_fields(schemas):
        passing = _passes_through(field)
        if passing is None:
            continue
        kind, tests = passing
        for value in EDGE_VALUES:
            if type(value) is kind and all(test(value) for test in tests):
                assert field._deserialize(value, None, None) is value, (field, value)
                handed += 1
            elif type(value) is float and kind is float:  # NaN or infinity: refused
                with pytest.raises(ValidationError):
                    field._deserialize(value, None, None)
    assert handed > 1000
