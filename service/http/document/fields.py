"""Fields that keep the OpenAPI document and the validation in agreement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate


class StrictInteger(fields.Integer):
    """An integer that is an integer: 7.9, "3" and true are refused; 7.0 is 7.

    JSON Schema calls 7.0 an integer, so it is accepted, as the document says.
    """

    default_error_messages = {"invalid": "Not a valid integer."}

    def _validated(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid", input=value)
        if isinstance(value, float):
            if not value.is_integer():
                raise self.make_error("invalid", input=value)
            value = int(value)
        return int(value)


class StrictBoolean(fields.Boolean):
    """true or false, nothing else: 0, 1, "yes" and "true" are refused."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class BoundedList(fields.List):  # type: ignore[type-arg]
    """A list with a documented length (``minItems``/``maxItems``), checked before its items.

    marshmallow runs a list's validators only after it has deserialised every item and
    collected an error for each bad one, so a 64 KiB body of 20,000 bad items costs a
    worker hundreds of milliseconds before ``Length`` refuses it. Here the length is
    checked first: a flood is one error, whatever the items are.
    """

    def __init__(self, inner: Any, *, most: int, least: int = 0, **kwargs: Any) -> None:
        self.length = (
            validate.Length(equal=most)
            if least == most
            else validate.Length(min=least or None, max=most)
        )
        super().__init__(inner, validate=self.length, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list):
            self.length(value)  # raises the ValidationError Length would have raised last
        return super()._deserialize(value, attr, data, **kwargs)


class Inches(fields.Float):
    """A distance or a calibre in inches: a JSON number (fractions allowed), never a string
    or a boolean."""

    default_error_messages = {"invalid": "Not a valid number."}

    def _validated(self, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid", input=value)
        return super()._validated(value)


class OneOf(fields.Field[Any]):
    """An object that must match exactly one of several schemas (``oneOf`` in the document).

    Each variant is told apart by the keys it requires; ``one_of_to_property`` documents
    it, registering each variant's schema as a component.
    """

    def __init__(
        self,
        variants: Sequence[type[Schema]],
        discriminator: str | None = None,
        **kwargs: Any,
    ) -> None:
        self.variant_classes = list(variants)
        self.discriminator = discriminator
        self.variants = [(cls.__name__, cls()) for cls in variants]
        # Each variant's required keys, worked out once rather than on every load.
        self.variant_required = [
            frozenset(key for key, field in schema.fields.items() if field.required)
            for _, schema in self.variants
        ]
        super().__init__(**kwargs)

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> Any:
        if not isinstance(value, dict):
            raise ValidationError("Must be an object.")
        failures: dict[str, Any] = {}
        for (name, schema), required in zip(self.variants, self.variant_required, strict=True):
            if not required <= value.keys():
                continue
            try:
                return schema.load(value)
            except ValidationError as error:
                failures[name] = error.messages
        if len(failures) == 1:
            raise ValidationError(next(iter(failures.values())))
        shapes = " or ".join(
            "{" + ", ".join(sorted(s.fields, key=lambda k: not s.fields[k].required)) + "}"
            for _, s in self.variants
        )
        raise ValidationError(f"Must be exactly one of these shapes: {shapes}.")


def one_of_to_property(converter: Any, field: fields.Field[Any], **_: Any) -> dict[str, Any]:
    """apispec attribute function: a OneOf field is a oneOf of its variants' components,
    with a ``discriminator`` (each variant's ``Const`` value of that member) if it has one."""
    if not isinstance(field, OneOf):
        return {}
    refs = [converter.resolve_nested_schema(cls) for cls in field.variant_classes]
    # A nullable one is one of its variants or null (apispec would write no null at all).
    documented: dict[str, Any] = {"oneOf": [*refs, {"type": "null"}] if field.allow_none else refs}
    if field.discriminator is not None:
        name = field.discriminator
        mapping = {
            str(cls._declared_fields[name].value): ref["$ref"]  # type: ignore[attr-defined]
            for cls, ref in zip(field.variant_classes, refs, strict=True)
        }
        documented["discriminator"] = {"propertyName": name, "mapping": mapping}
    return documented


class Const(fields.Field[Any]):
    """One fixed value (``const`` in the document): the tag of a variant of a union."""

    def __init__(self, value: str | bool, **kwargs: Any) -> None:
        self.value = value
        super().__init__(validate=validate.Equal(value), **kwargs)


def const_to_property(converter: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: a Const field is ``const`` with its JSON type (and no
    one-member ``enum``, which apispec reads off its validator)."""
    if not isinstance(field, Const):
        return {}
    kwargs["ret"].pop("enum", None)
    kind = "boolean" if isinstance(field.value, bool) else "string"
    return {"type": kind, "const": field.value}


def count(low: int, high: int, **kwargs: Any) -> StrictInteger:
    """A strict integer from ``low`` to ``high``."""
    return StrictInteger(validate=validate.Range(min=low, max=high), **kwargs)


def inches(low: float, high: float, **kwargs: Any) -> Inches:
    """A distance or calibre in inches from ``low`` to ``high`` (every ruleset's one field)."""
    return Inches(validate=validate.Range(min=low, max=high), **kwargs)
