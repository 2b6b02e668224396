"""A step result's marshmallow schema, derived from its TypedDict (the one definition).

A ruleset's ``results.py`` defines each result shape once, as the TypedDict its step
returns; the schema here (and so the OpenAPI component, named as the TypedDict) is worked
out from it, member by member:

* ``str``, ``int``, ``float``, ``bool``: the plain fields;
* a fixed set, ``Annotated[Literal[...], Fixed(...)]``: a ``$ref`` to its ``EnumType``;
  a one-member ``Literal`` that names no set: ``const``, the tag of a union's variant;
* ``X | None``: nullable; ``NotRequired[X]``: not required;
* a nested TypedDict: its own derived component; a union of TypedDicts: ``oneOf``, with a
  ``discriminator`` where every variant requires one member, each its own one-value
  ``Literal`` (a turn's events by ``phase``);
* ``list[X]``, ``dict[str, X]``: an array, a map;
* ``Annotated[X, Doc("...")]``: the member's description (and example);
* a named string form, ``Annotated[str, Pattern(...)]``: a ``$ref`` to its component;
* ``Annotated[X, Limits(...)]``: the member's pattern or length, in place.

Result schemas document the answers; views write the very dicts the steps return, so none
of this runs per request. Each schema is built once (and cached), at import.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, NotRequired, Required

from marshmallow import Schema, fields, validate

from ...engine.typed import Doc, Fixed, Limits, Pattern
from .components import EnumType, pattern_component
from .fields import Const, OneOf

_SCALARS: dict[Any, type[fields.Field[Any]]] = {
    str: fields.String,
    int: fields.Integer,
    float: fields.Float,
    bool: fields.Boolean,
}

_SCHEMAS: dict[type, type[Schema]] = {}


class _Named(fields.String):
    """A string documented as the component ``component`` (a ``$ref``, components.py)."""

    def __init__(self, component: str, **kwargs: Any) -> None:
        self.component = component
        super().__init__(**kwargs)


def same_shape(typed: type, schema: type[Schema]) -> type[Schema]:
    """Document the TypedDict ``typed``, wherever a result nests it, as the request schema
    ``schema`` of the same shape: a state a step hands back that a later request sends
    again is one component, with what only HTTP knows (its limits). tests/test_typed_results.py
    holds the two to the same members."""
    if _SCHEMAS.setdefault(typed, schema) is not schema:
        raise ValueError(f"{typed.__name__} already has a schema")
    return schema


def result_schema(typed: type) -> type[Schema]:
    """The schema of the TypedDict ``typed``, named as it is (built once)."""
    found = _SCHEMAS.get(typed)
    if found is None:
        if not typing.is_typeddict(typed):
            raise TypeError(f"not a TypedDict: {typed!r}")
        required: frozenset[str] = typed.__required_keys__  # type: ignore[attr-defined]
        hints = typing.get_type_hints(typed, include_extras=True)
        members = {key: field_of(hint, required=key in required) for key, hint in hints.items()}
        found = _SCHEMAS[typed] = Schema.from_dict(members, name=typed.__name__)
    return found


def field_of(hint: Any, **kwargs: Any) -> fields.Field[Any]:
    """The field of one member's type hint (``kwargs``: required, allow_none, metadata)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (NotRequired, Required):
        return field_of(args[0], **kwargs)
    if origin is typing.Annotated:
        base, *extras = args
        for extra in extras:
            if isinstance(extra, Doc):
                metadata = {"description": extra.description}
                if extra.example is not None:
                    metadata["example"] = extra.example
                kwargs["metadata"] = {**kwargs.get("metadata", {}), **metadata}
            if isinstance(extra, Limits):
                checks: list[validate.Validator] = []
                if extra.pattern is not None:
                    checks.append(validate.Regexp(extra.pattern))
                if extra.length is not None:
                    checks.append(validate.Length(equal=extra.length))
                kwargs["validate"] = checks[0] if len(checks) == 1 else checks
        if any(isinstance(extra, Fixed) for extra in extras):
            return EnumType.of(hint).field(**kwargs)
        if any(isinstance(extra, Pattern) for extra in extras):
            return _Named(pattern_component(hint).name, **kwargs)
        return field_of(base, **kwargs)
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in args if arg is not type(None)]
        if len(options) < len(args):
            kwargs["allow_none"] = True
        if len(options) == 1:
            return field_of(options[0], **kwargs)
        if all(typing.is_typeddict(option) for option in options):
            schemas = [result_schema(option) for option in options]
            return OneOf(schemas, discriminator=_tag(options), **kwargs)
        raise TypeError(f"a union the document cannot state: {hint!r}")
    if origin is Literal:
        if len(args) != 1:
            raise TypeError(f"a fixed set with no name (Annotated[..., Fixed]): {hint!r}")
        return Const(args[0], **kwargs)
    if typing.is_typeddict(hint):
        return fields.Nested(result_schema(hint), **kwargs)
    if origin is list:
        return fields.List(field_of(args[0]), **kwargs)
    if origin is dict:
        if args[0] is not str:
            raise TypeError(f"a map keyed by {args[0]!r}: JSON keys are strings")
        return fields.Dict(keys=fields.String(), values=field_of(args[1]), **kwargs)
    if hint in _SCALARS:
        return _SCALARS[hint](**kwargs)
    raise TypeError(f"a type the document cannot state: {hint!r}")


def _tag(variants: list[Any]) -> str | None:
    """The member that tells a union's variants apart, if there is one: every variant
    requires it, each as a one-value ``Literal`` of its own."""
    first, *_ = variants
    for key in first.__required_keys__:
        tags: list[object] = []
        for variant in variants:
            hint = typing.get_type_hints(variant).get(key)
            if key not in variant.__required_keys__ or typing.get_origin(hint) is not Literal:
                break
            tags.extend(typing.get_args(hint))
        else:
            if len(tags) == len(variants) == len(set(tags)):
                return str(key)
    return None
