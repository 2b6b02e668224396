"""A request schema's ``load``, planned once: the same result for a valid body, with
marshmallow's own load for everything else.

marshmallow's ``Schema.load`` spends most of its time on its own framework, not on the
fields: on every load of every nested schema it looks up its hooks and options, builds an
error store and a closure per field, and works out the set of unknown names. For the
request schemas of this service (plain fields, nested schemas, lists, one-of fields and
``post_load`` hooks, unknown names refused) all of that is known when the app is built.
``planned(schema)`` reads it once and returns a load that, on a valid body, does only what
decides the result, in marshmallow's order:

- each field, by its data key: missing (its default, or not set), null (where allowed), or
  the field's own ``_deserialize`` and validators, exactly as ``Field.deserialize`` runs
  them; nested schemas, list items and one-of variants planned the same way;
- where that is known to change nothing, less: a value that a field's conversion hands
  back as it is (a JSON string to a ``String``) is not converted, and a value that
  marshmallow's own ``Range``, ``Length``, ``OneOf`` or ``Regexp`` accepts passes by the
  plan's own test, made once from the validator's bounds, choices or pattern; a value the
  test does not pass goes to the field's conversion and validators themselves;
- no name the schema does not know;
- the schema's ``post_load`` hooks, called as marshmallow calls them.

The first thing that is not so (a wrong type, a value a validator refuses, a missing or
unknown member, anything the plan does not cover) stops the plan and the body is loaded by
``schema.load`` itself, from the start: every refusal is marshmallow's own, word for word,
and its cost bounded as before. A schema with anything else (pre-load hooks, schema or
field validators declared as methods, partial or collection loading, a field class that
overrides how a value is deserialized) is not planned at all: its load is ``schema.load``.
tests/test_loading.py loads every documented example and many generated bodies both ways.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from itertools import repeat
from typing import Any

from marshmallow import Schema, ValidationError, fields, missing, validate

from ..document.fields import BoundedList, Inches, OneOf, StrictBoolean, StrictInteger

Load = Callable[[Any], Any]


class _Unplanned(Exception):
    """Raised while loading: this body leaves the plan, so marshmallow loads it."""


class _NotPlannable(Exception):
    """Raised while planning: this schema or field is loaded by marshmallow itself."""


def planned(schema: Schema) -> Load:
    """``schema.load``, planned where it can be (see above); ``schema.load`` otherwise."""
    try:
        plan = _schema_plan(schema)
    except _NotPlannable:
        return schema.load

    def load(data: Any) -> Any:
        try:
            return plan(data, None, None)
        except (_Unplanned, ValidationError):
            return schema.load(data)

    return load


# What a plan is made of: a function of the raw value (with its key and the object it is
# in, as marshmallow hands them to a field) that returns the loaded value or raises
# (ValidationError from a field's own code, or _Unplanned).
Step = Callable[[Any, str | None, Any], Any]


def _schema_plan(schema: Schema) -> Step:
    hooks = schema._hooks  # noqa: SLF001 - marshmallow's own record of its decorators
    if (
        schema.many
        or schema.partial
        or schema.unknown != "raise"
        or any(hooks[tag] for tag in hooks if tag != "post_load")
    ):
        raise _NotPlannable
    members = []
    for name, field in schema.load_fields.items():
        target = field.attribute or name
        if "." in target:  # marshmallow would set a nested key
            raise _NotPlannable
        key = field.data_key if field.data_key is not None else name
        default = field.load_default
        members.append(
            (
                key,
                target,
                _value_plan(field),
                field.allow_none,
                field.required,
                default if callable(default) else None,
                default,
            )
        )
    known = frozenset(key for key, *_ in members)
    after = []
    for attr, hook_many, options in hooks["post_load"]:
        if hook_many or options.get("pass_original"):
            raise _NotPlannable
        after.append(getattr(schema, attr))
    partial, unknown = schema.partial, schema.unknown

    def plan(data: Any, _key: str | None, _parent: Any) -> Any:
        if type(data) is not dict or not known.issuperset(data):
            raise _Unplanned
        result = {}
        for key, target, value_plan, allow_none, required, make, default in members:
            value = data.get(key, missing)
            if value is missing:
                if required:
                    raise _Unplanned
                value = default if make is None else make()
                if value is not missing:
                    result[target] = value
            elif value is None:
                if not allow_none:
                    raise _Unplanned
                result[target] = None
            else:
                result[target] = value_plan(value, key, data)
        for hook in after:
            result = hook(result, many=False, partial=partial, unknown=unknown)
        return result

    return plan


def _value_plan(field: fields.Field[Any]) -> Step:
    """How a present, non-null value of ``field`` is loaded."""
    if field.pre_load or field.post_load or _overrides(field, "deserialize", "_validate_missing"):
        raise _NotPlannable
    if isinstance(field, OneOf):
        return _validated(field, _one_of_plan(field))
    if isinstance(field, fields.Nested):
        nested = field.schema
        if type(field)._deserialize is not fields.Nested._deserialize:
            raise _NotPlannable
        if nested.many or field.many or field.unknown is not None or field.only or field.exclude:
            raise _NotPlannable
        return _validated(field, _schema_plan(nested))
    if isinstance(field, fields.List):
        if type(field)._deserialize not in (fields.List._deserialize, BoundedList._deserialize):
            raise _NotPlannable
        item = _item_plan(field.inner)
        length = field.length if isinstance(field, BoundedList) else None
        fits = None if length is None else _test_of(length, list)
        nones = repeat(None)

        def list_value(value: Any, key: str | None, data: Any) -> Any:
            if type(value) is not list:
                raise _Unplanned
            if length is not None and (fits is None or not fits(value)):
                length(value)  # before the items, as BoundedList refuses a flood
            return list(map(item, value, nones, nones))  # no key nor data, as List hands on

        return _validated(field, list_value, list)
    if isinstance(field, fields.Dict | fields.Tuple | fields.Mapping):
        raise _NotPlannable  # loaded by marshmallow: none is on a hot path
    return _leaf_plan(field)


# A test of a value: true only where what it stands for holds (a validator would accept
# the value, a conversion would hand it back as it is), false where that is not sure.
Test = Callable[[Any], bool]


def _validated(field: fields.Field[Any], convert: Step, kind: type | None = None) -> Step:
    """``convert``, then the field's validators on what it gives, as ``deserialize`` runs
    them (``convert`` itself where the field has none). Where ``convert`` gives a value of
    the type ``kind``, the validators the plan has a test of run only if it fails."""
    if not field.validators:
        return convert
    validate = field._validate  # noqa: SLF001 - the field's own validators
    checks = None if kind is None else _checks(field, kind)
    if checks is None:

        def validated(value: Any, key: str | None, data: Any) -> Any:
            out = convert(value, key, data)
            validate(out)
            return out

        return validated
    test, rest = checks

    def tested(value: Any, key: str | None, data: Any) -> Any:
        out = convert(value, key, data)
        if type(out) is kind and (test is None or test(out)):
            for check in rest:
                check(out)
        else:
            validate(out)
        return out

    return tested


def _leaf_plan(field: fields.Field[Any]) -> Step:
    """A plain value: the field's own conversion and validators; or, for a value of the
    type that the conversion hands back as it is and that passes the validators' tests,
    the value itself (with each validator the plan has no test of run on it)."""
    slow = _validated(field, field._deserialize)  # noqa: SLF001 - the field's own conversion
    passing = _passes_through(field)
    checks = None if passing is None else _checks(field, passing[0])
    if passing is None or checks is None:
        return slow
    kind, own = passing
    more, rest = checks
    test = _every([*own, *([] if more is None else [more])])
    if rest:

        def checked(value: Any, key: str | None, data: Any) -> Any:
            if type(value) is kind and (test is None or test(value)):
                for check in rest:
                    check(value)
                return value
            return slow(value, key, data)

        return checked
    if test is None:

        def typed(value: Any, key: str | None, data: Any) -> Any:
            return value if type(value) is kind else slow(value, key, data)

        return typed

    def passed(value: Any, key: str | None, data: Any) -> Any:
        return value if type(value) is kind and test(value) else slow(value, key, data)

    return passed


def _passes_through(field: fields.Field[Any]) -> tuple[type, list[Test]] | None:
    """The JSON type whose values (those that pass the tests given with it) the field's
    conversion hands back as they are, the very object; None where the plan knows none.

    ``String`` gives ``str(value)`` of a str, ``Integer`` and ``StrictInteger``
    ``int(value)`` of an int, ``Float`` and ``Inches`` ``float(value)`` of a float that is
    finite (any float where NaN and infinity are allowed), ``StrictBoolean`` a bool itself.
    """
    cls = type(field)
    convert = cls._deserialize
    if convert is fields.String._deserialize:
        return str, []
    if convert is StrictBoolean._deserialize:
        return bool, []
    if (
        not isinstance(field, fields.Number)
        or convert is not fields.Number._deserialize
        or type(field)._format_num is not fields.Number._format_num
    ):
        return None
    number = type(field)._validated
    if number in (fields.Integer._validated, StrictInteger._validated) and field.num_type is int:
        return int, []
    if (
        isinstance(field, fields.Float)
        and number in (fields.Float._validated, Inches._validated)
        and field.num_type is float
    ):
        return float, [] if field.allow_nan else [math.isfinite]
    return None


def _checks(field: fields.Field[Any], kind: type) -> tuple[Test | None, list[Any]] | None:
    """For a value of the type ``kind``: one test of the field's validators the plan has a
    test of (None if it has none), and the other validators, to run as they are; None
    where the field's class runs its validators its own way."""
    cls = type(field)
    if (
        cls._validate is not fields.Field._validate
        or cls._validate_all is not fields.Field._validate_all
    ):
        return None
    tests, rest = [], []
    for validator in field.validators:
        test = _test_of(validator, kind)
        if test is None:
            rest.append(validator)
        else:
            tests.append(test)
    return _every(tests), rest


def _test_of(validator: Any, kind: type) -> Test | None:
    """A test of a value of the type ``kind`` (exactly: a bool is no int here) that passes
    only values ``validator`` accepts; None where the plan has none. Each is made of the
    validator's own bounds, choices or pattern, and where it passes, the validator's own
    check cannot fail (a NaN fails the test, and the validator decides)."""
    form = type(validator)
    if form is validate.And:
        tests = [_test_of(each, kind) for each in validator.validators]
        known = [test for test in tests if test is not None]
        return _every(known) if len(known) == len(tests) else None
    if form is validate.Range and kind in (int, float):
        return _range_test(validator)
    if form is validate.Length and kind in (str, list):
        return _length_test(validator)
    if form is validate.OneOf and kind is str:
        choices = validator.choices
        if type(choices) in (list, tuple, set, frozenset) and all(
            type(choice) is str for choice in choices
        ):
            return frozenset(choices).__contains__
        return None
    if form is validate.Regexp and kind is str:
        pattern = validator.regex
        if isinstance(pattern, re.Pattern) and type(pattern.pattern) is str:
            match = pattern.match
            return lambda value: match(value) is not None
    return None


def _range_test(validator: validate.Range) -> Test | None:
    low, high = validator.min, validator.max
    if any(bound is not None and type(bound) not in (int, float) for bound in (low, high)):
        return None
    low_in, high_in = validator.min_inclusive, validator.max_inclusive
    if low is not None and high is not None and low_in and high_in:
        return lambda value: low <= value <= high

    def within(value: Any) -> bool:
        return (low is None or (low <= value if low_in else low < value)) and (
            high is None or (value <= high if high_in else value < high)
        )

    return within


def _length_test(validator: validate.Length) -> Test | None:
    low, high, equal = validator.min, validator.max, validator.equal
    if any(bound is not None and type(bound) is not int for bound in (low, high, equal)):
        return None
    if equal is not None:
        return lambda value: len(value) == equal
    if low is None and high is not None:
        return lambda value: len(value) <= high
    if low is not None and high is not None:
        return lambda value: low <= len(value) <= high

    def within(value: Any) -> bool:
        return (low is None or low <= len(value)) and (high is None or len(value) <= high)

    return within


def _every(tests: list[Test]) -> Test | None:
    """One test that passes where each of ``tests`` does (None for no tests)."""
    if not tests:
        return None
    if len(tests) == 1:
        return tests[0]
    return lambda value: all(test(value) for test in tests)


def _item_plan(field: fields.Field[Any]) -> Step:
    """A list item: what ``Field.deserialize`` does for a value that may be null."""
    value_plan = _value_plan(field)
    allow_none = field.allow_none

    def item(value: Any, key: str | None, data: Any) -> Any:
        if value is None:
            if not allow_none:
                raise _Unplanned
            return None
        return value_plan(value, key, data)

    return item


def _one_of_plan(field: OneOf) -> Step:
    """The first variant whose required members the value has, as OneOf loads it; a value
    that the first such variant refuses is left to marshmallow, which tries the next."""
    variants = [
        (required, _schema_plan(schema))
        for (_, schema), required in zip(field.variants, field.variant_required, strict=True)
    ]

    def one_of(value: Any, key: str | None, data: Any) -> Any:
        if type(value) is not dict:
            raise _Unplanned
        keys = value.keys()
        for required, plan in variants:
            if keys >= required:
                return plan(value, key, data)
        raise _Unplanned

    return one_of


def _overrides(field: fields.Field[Any], *names: str) -> bool:
    """Whether the field's class changes how marshmallow's Field runs these methods."""
    cls = type(field)
    return any(getattr(cls, name) is not getattr(fields.Field, name) for name in names)
