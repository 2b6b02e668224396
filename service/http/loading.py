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

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, ValidationError, fields, missing

from .fields import BoundedList, OneOf

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
        members.append((key, target, field, _value_plan(field)))
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
        for key, target, field, value_plan in members:
            value = data.get(key, missing)
            if value is missing:
                if field.required:
                    raise _Unplanned
                default = field.load_default
                value = default() if callable(default) else default
                if value is not missing:
                    result[target] = value
            elif value is None:
                if not field.allow_none:
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

        def list_value(value: Any, key: str | None, data: Any) -> Any:
            if type(value) is not list:
                raise _Unplanned
            if length is not None:
                length(value)  # before the items, as BoundedList refuses a flood
            return [item(each, None, None) for each in value]  # as List hands them on

        return _validated(field, list_value)
    if isinstance(field, fields.Dict | fields.Tuple | fields.Mapping):
        raise _NotPlannable  # loaded by marshmallow: none is on a hot path
    return _validated(field, field._deserialize)  # noqa: SLF001 - the field's own conversion


def _validated(field: fields.Field[Any], convert: Step) -> Step:
    """``convert``, then the field's validators on what it gives, as ``deserialize`` runs
    them (``convert`` itself where the field has none)."""
    if not field.validators:
        return convert
    validate = field._validate  # noqa: SLF001 - the field's own validators

    def validated(value: Any, key: str | None, data: Any) -> Any:
        out = convert(value, key, data)
        validate(out)
        return out

    return validated


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
        for required, plan in variants:
            if required <= value.keys():
                return plan(value, key, data)
        raise _Unplanned

    return one_of


def _overrides(field: fields.Field[Any], *names: str) -> bool:
    """Whether the field's class changes how marshmallow's Field runs these methods."""
    cls = type(field)
    return any(getattr(cls, name) is not getattr(fields.Field, name) for name in names)
