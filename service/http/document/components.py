"""Named OpenAPI components: one per concept, referenced wherever the concept is used.

A generator makes one type per component; an inline ``enum`` repeated in ten places would
become ten types a client cannot assign to one another. So every fixed set of strings is
an ``EnumType`` (one component, its fields refer to it with ``$ref``), and other concepts
with a shape of their own (a grid square) are components as well. A nullable one is
``oneOf: [component, null]``. ``create_app`` registers them all in the document.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from marshmallow import fields, validate

from ...engine.typed import Pattern, fixed_set, pattern_of

COMPONENTS: dict[str, dict[str, Any]] = {}


def camel(text: str) -> str:
    """A component name's part from an id: ``salvo-solo`` (or ``salvo_solo``) -> ``SalvoSolo``."""
    return "".join(part.capitalize() for part in text.replace("_", "-").split("-"))


# Keys of a property that stay beside its ``$ref`` (OpenAPI 3.1 allows siblings).
_KEPT = ("description", "default", "example", "deprecated", "readOnly", "writeOnly")


def component(name: str, schema: Mapping[str, Any]) -> str:
    """Register ``schema`` as the component ``name`` (once: a second, different one is a bug)."""
    found = COMPONENTS.get(name)
    if found is not None and found != dict(schema):
        raise ValueError(f"two different components are both named {name!r}")
    COMPONENTS[name] = dict(schema)
    return name


def pattern_component(alias: Any) -> Pattern:
    """Register the named string form ``Annotated[str, Pattern(...)]`` (service/engine/typed.py)
    as its component: a string with its pattern, description and example."""
    marker = pattern_of(alias)
    schema: dict[str, Any] = {
        "type": "string",
        "pattern": marker.pattern,
        "description": marker.description,
    }
    if marker.example is not None:
        schema["example"] = marker.example
    component(marker.name, schema)
    return marker


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


class EnumType:
    """A fixed set of strings, documented once as the component ``name``.

    ``aliases`` (other spellings a player may type, each to its value) are accepted by the
    server and named in the description, never listed as members of the enum.
    """

    def __init__(
        self,
        name: str,
        values: Iterable[str],
        description: str,
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        self.name = name
        self.values = tuple(values)
        self.aliases = dict(aliases or {})
        if self.aliases:
            spelled = "; ".join(f"{alias!r} for {value!r}" for alias, value in self.aliases.items())
            description += f" Other spellings are accepted as the same value: {spelled}."
        component(name, {"type": "string", "enum": list(self.values), "description": description})

    @classmethod
    def of(cls, alias: Any) -> EnumType:
        """The component of a fixed set defined as ``Annotated[Literal[...], Fixed(...)]``
        (service/engine/typed.py): its name, members, description and aliases read from it."""
        marker, members = fixed_set(alias)
        found = _FIXED.get(marker.name)
        if found is None:
            found = _FIXED[marker.name] = cls(
                marker.name, members, marker.description, marker.aliases
            )
        elif found.values != members:
            raise ValueError(f"two different fixed sets are both named {marker.name!r}")
        return found

    def field(self, **kwargs: Any) -> EnumField:
        """A field that accepts the values (and aliases) and documents a ``$ref``."""
        return EnumField(self, **kwargs)

    def canonical(self, value: str) -> str:
        return self.aliases.get(value, value)


# Each fixed set's one EnumType, by component name (EnumType.of).
_FIXED: dict[str, EnumType] = {}


class EnumField(fields.String):
    """A string of an ``EnumType``: validated against its values and aliases."""

    def __init__(self, enum: EnumType, **kwargs: Any) -> None:
        super().__init__(validate=validate.OneOf([*enum.values, *enum.aliases]), **kwargs)
        self.component = enum.name


def component_to_property(converter: Any, field: fields.Field[Any], **kwargs: Any) -> Any:
    """apispec attribute function: a field that names a ``component`` is a ``$ref`` to it.

    It runs after apispec's own functions and replaces what they wrote (type, enum,
    pattern), keeping the description, default and example.
    """
    name = getattr(field, "component", None)
    if name is None:
        return {}
    ret: dict[str, Any] = kwargs["ret"]
    kept = {key: ret[key] for key in _KEPT if key in ret}
    ret.clear()
    target: dict[str, Any] = ref(name)
    if field.allow_none:
        target = {"oneOf": [target, {"type": "null"}]}
    return {**target, **kept}


def nullable_as_one_of(converter: Any, field: fields.Field[Any], **kwargs: Any) -> Any:
    """apispec attribute function: a nullable nested schema is ``oneOf`` [it, null].

    apispec writes ``anyOf``, which some generators turn into extra wrapper types.
    """
    ret: dict[str, Any] = kwargs["ret"]
    options = ret.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options and len(options) == 2:
        ret["oneOf"] = ret.pop("anyOf")
    return {}
