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
* a named string form, ``Annotated[str, Pattern(...)]``: a ``$ref`` to its component; in
  a request (a shape's member) also checked against its pattern, refused in the words of
  the form's ``invalid``;
* ``Annotated[X, Limits(...)]``: the member's pattern or length, in place;
* ``Annotated[X, Check(test, message)]``: a test of the value beyond its limits;
* ``Annotated[JsonObject, JsonOf(...)]``: the JSON of a shape, as the request that takes
  it back reads it; ``oneOf`` several (``others``); a shape only ever written
  (``written=True``) as ``to_json`` writes it, every member there (``written_schema``);
* ``Annotated[str, Named(name)]``: the field the HTTP layer registered under ``name``
  (``named_field``), for a kind it documents and checks itself (the ruleset ids it serves);
* ``Any``: any JSON value; ``dict[str, Any]``: any JSON object.

Result schemas document the answers; views write the very dicts the steps return, so none
of this runs per request. Each schema is built once (and cached), at import.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, NotRequired, Required

from marshmallow import Schema, ValidationError, fields, post_load, validate

from ...engine import shape
from ...engine.typed import Check, Doc, Fixed, JsonObject, JsonOf, Limits, Named, Pattern, Via
from .components import EnumType, pattern_component
from .fields import BoundedList, Const, Inches, OneOf, StrictBoolean, StrictInteger

_SCALARS: dict[Any, type[fields.Field[Any]]] = {
    str: fields.String,
    int: fields.Integer,
    float: fields.Float,
    bool: fields.Boolean,
}

# What a request reads: a JSON number that is a number, never a string or a boolean.
_STRICT: dict[Any, type[fields.Field[Any]]] = {
    str: fields.String,
    int: StrictInteger,
    float: Inches,
    bool: StrictBoolean,
}

_SCHEMAS: dict[type, type[Schema]] = {}


class _Named(fields.String):
    """A string documented as the component ``component`` (a ``$ref``, components.py)."""

    def __init__(self, component: str, **kwargs: Any) -> None:
        self.component = component
        super().__init__(**kwargs)


class _Form(_Named):
    """A request's string of a named form (``Pattern``): a string that matches its pattern,
    whole, or refused in the form's words (its ``invalid``), a string or not."""

    def __init__(self, form: Pattern, **kwargs: Any) -> None:
        invalid = form.invalid or f"Not a {form.name}: {form.description}"
        kwargs["error_messages"] = {"invalid": invalid, **kwargs.get("error_messages", {})}
        super().__init__(form.name, **kwargs)
        self.fits = re.compile(form.pattern).fullmatch

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        # A JSON string is a str already: String's own checks would hand it back as it is.
        text = value if type(value) is str else super()._deserialize(value, attr, data, **kwargs)
        if self.fits(text) is None:
            raise self.make_error("invalid")
        return text


_NAMED: dict[str, Callable[..., fields.Field[Any]]] = {}


def named_field(name: str, make: Callable[..., fields.Field[Any]]) -> None:
    """Register how the field of a member marked ``Named(name)`` is made (``make`` takes
    the field's keyword arguments): once, the same maker each time."""
    if _NAMED.setdefault(name, make) != make:
        raise ValueError(f"two different fields are both named {name!r}")


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


def shape_schema(cls: type) -> type[Schema]:
    """The schema that reads the shape ``cls`` (a dataclass, engine/shape.py), named as its
    component, loading into the shape itself (built once)."""
    found = _SCHEMAS.get(cls)
    if found is None:
        made = shape.maker(cls)
        make = post_load(lambda _, values, **__: made(values))
        found = type(shape.component_name(cls), (members_schema(cls),), {"make": make})
        _SCHEMAS[cls] = found
    return found


_MEMBERS: dict[type, type[Schema]] = {}


def members_schema(cls: type) -> type[Schema]:
    """The schema of the shape ``cls``'s members alone, loading a dict of them: a step's
    request, whose envelope adds its own members, is read this way, and its view makes the
    step's inputs of the step's own members (``shape.make``)."""
    found = _MEMBERS.get(cls)
    if found is None:
        declared = {m.attr: _member_field(m) for m in shape.members(cls)}
        found = _MEMBERS[cls] = type(f"{shape.component_name(cls)}Members", (Schema,), declared)
    return found


_QUERIES: dict[type, type[Schema]] = {}


def query_schema(cls: type) -> type[Schema]:
    """The schema that reads the shape ``cls``'s members from a query string, whose values
    are text (``true``, ``5``): its fields read them as webargs does, not strictly."""
    found = _QUERIES.get(cls)
    if found is None:
        declared = {m.attr: _member_field(m, strict=False) for m in shape.members(cls)}
        found = _QUERIES[cls] = type(f"{shape.component_name(cls)}Query", (Schema,), declared)
    return found


def _member_field(member: shape.Member, *, strict: bool = True) -> fields.Field[Any]:
    kwargs: dict[str, Any] = {"strict": strict}
    if member.key != member.attr:
        kwargs["data_key"] = member.key
    if member.omitted:
        return field_of(shape.without_none(member.hint), **kwargs)
    if member.required:
        kwargs["required"] = True
    elif member.default_factory is not None or member.default == ():
        # A list left out is an empty one, loaded as a list (made a tuple with the rest).
        factory = member.default_factory
        kwargs["load_default"] = list if factory in (None, tuple, list) else factory
    else:
        kwargs["load_default"] = member.default
    return field_of(member.hint, **kwargs)


def field_of(hint: Any, *, strict: bool = False, **kwargs: Any) -> fields.Field[Any]:
    """The field of one member's type hint (``kwargs``: required, allow_none, metadata);
    ``strict``: a request's field, whose numbers and booleans are only those."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (NotRequired, Required):
        return field_of(args[0], strict=strict, **kwargs)
    if origin is typing.Annotated:
        base, *extras = args
        limits: Limits | None = None
        json_of: JsonOf | None = None
        tests = [_check(extra) for extra in extras if isinstance(extra, Check)]
        for extra in extras:
            if isinstance(extra, Doc):
                metadata = {}
                if extra.description is not None:
                    metadata["description"] = extra.description
                if extra.example is not None:
                    metadata["example"] = extra.example
                kwargs["metadata"] = {**kwargs.get("metadata", {}), **metadata}
            if isinstance(extra, Limits):
                limits = extra
            if isinstance(extra, Via):
                base = extra.json
            if isinstance(extra, JsonOf):
                json_of = extra
        if json_of is not None:
            return _json_of(json_of, base, **kwargs)
        for extra in extras:
            if isinstance(extra, Named):
                return _NAMED[extra.name](**kwargs)
        if any(isinstance(extra, Fixed) for extra in extras):
            return EnumType.of(hint).field(**kwargs)
        if limits is not None and typing.get_origin(shape.bare(base)) in (list, tuple):
            least, most = limits.least, limits.most
            if limits.length is not None:
                least = most = limits.length
            item = typing.get_args(shape.bare(base))[0]
            inner = field_of(item, strict=strict)
            if most is None:
                return fields.List(inner, validate=validate.Length(min=least), **kwargs)
            return BoundedList(inner, least=least or 0, most=most, **kwargs)
        if limits is not None:
            kwargs["validate"] = _checks(limits)
        if tests:
            given = kwargs.get("validate", [])
            kwargs["validate"] = [*(given if isinstance(given, list) else [given]), *tests]
        if any(isinstance(extra, Pattern) for extra in extras):
            form = pattern_component(hint)
            return _Form(form, **kwargs) if strict else _Named(form.name, **kwargs)
        return field_of(base, strict=strict, **kwargs)
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in args if arg is not type(None)]
        if len(options) < len(args):
            kwargs["allow_none"] = True
        if len(options) == 1:
            return field_of(options[0], strict=strict, **kwargs)
        if all(typing.is_typeddict(option) for option in options):
            schemas = [result_schema(option) for option in options]
            return OneOf(schemas, discriminator=_tag(options), **kwargs)
        if all(shape.is_shape(option) for option in options):
            schemas = [shape_schema(option) for option in options]
            return OneOf(schemas, **kwargs)
        raise TypeError(f"a union the document cannot state: {hint!r}")
    if origin is Literal:
        if len(args) != 1:
            raise TypeError(f"a fixed set with no name (Annotated[..., Fixed]): {hint!r}")
        return Const(args[0], **kwargs)
    if typing.is_typeddict(hint):
        return fields.Nested(result_schema(hint), **kwargs)
    if shape.is_shape(hint):
        return fields.Nested(shape_schema(hint), **kwargs)
    if origin in (list, tuple):
        return fields.List(field_of(args[0], strict=strict), **kwargs)
    if origin is dict:
        if args[0] is not str:
            raise TypeError(f"a map keyed by {args[0]!r}: JSON keys are strings")
        return fields.Dict(keys=fields.String(), values=field_of(args[1], strict=strict), **kwargs)
    if hint is Any:
        return fields.Raw(**kwargs)
    kinds = _STRICT if strict else _SCALARS
    if hint in kinds:
        return kinds[hint](**kwargs)
    raise TypeError(f"a type the document cannot state: {hint!r}")


def _json_of(json_of: JsonOf, base: Any, **kwargs: Any) -> fields.Field[Any]:
    """An answer's member that is the JSON of a shape, or of one of several (``oneOf``);
    null too where its type is ``JsonObject | None``."""
    if type(None) in typing.get_args(base):
        kwargs["allow_none"] = True
    made = written_schema if json_of.written else shape_schema
    schemas = [made(cls) for cls in json_of.resolve_all()]
    if len(schemas) == 1:
        return fields.Nested(schemas[0], **kwargs)
    return OneOf(schemas, **kwargs)


_WRITTEN: dict[type, type[Schema]] = {}


def written_schema(cls: type) -> type[Schema]:
    """The schema of what ``shape.to_json`` writes of the shape ``cls``, where no request
    reads it (``JsonOf(..., written=True)``): every member is there, an ``Omitted`` one
    aside, whatever its default; a nested shape is documented the same way (built once)."""
    found = _WRITTEN.get(cls)
    if found is None:
        declared = {
            m.key: field_of(_written(m.hint), required=not m.omitted) for m in shape.members(cls)
        }
        found = _WRITTEN[cls] = Schema.from_dict(declared, name=shape.component_name(cls))
    return found


def _written(hint: Any) -> Any:
    """``hint`` with each shape in it the JSON ``to_json`` writes of it (a tuple a list)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated:
        return typing.Annotated[(_written(args[0]), *args[1:])]
    if shape.is_shape(hint):
        dotted = f"{hint.__module__}.{hint.__qualname__}"
        return typing.Annotated[JsonObject, JsonOf(dotted, written=True)]
    if origin in (tuple, list):
        return list[_written(args[0])]  # type: ignore[misc]
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(_written(arg) for arg in args)]  # noqa: UP007
    return hint


def _check(check: Check) -> validate.Validator:
    def checked(value: Any) -> Any:
        if not check.test(value):
            raise ValidationError(check.message)
        return value

    return typing.cast(validate.Validator, checked)


def _checks(limits: Limits) -> validate.Validator | list[validate.Validator]:
    """The validators of a scalar's ``Limits``."""
    checks: list[validate.Validator] = []
    if limits.pattern is not None:
        if limits.error is None:
            checks.append(validate.Regexp(limits.pattern))
        else:
            checks.append(validate.Regexp(limits.pattern, error=limits.error))
    if limits.length is not None:
        checks.append(validate.Length(equal=limits.length))
    if limits.least is not None or limits.most is not None:
        checks.append(validate.Length(min=limits.least, max=limits.most))
    if limits.minimum is not None or limits.maximum is not None:
        checks.append(validate.Range(min=limits.minimum, max=limits.maximum))
    return checks[0] if len(checks) == 1 else checks


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
