"""Ships named from a ruleset's catalog or sent inline, with their state so far."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import Schema, fields, post_load

from ..document.components import EnumType
from ..document.fields import OneOf


def ship_reference(
    prefix: str,
    names: EnumType,
    catalog: Mapping[str, Any],
    card: type[Schema],
    state: type[Schema],
    ship: Callable[[Any, Any], Any],
    blank_state: Callable[[], Any],
) -> Callable[..., OneOf]:
    """A field factory: ``{"ship": name, "state"}`` or ``{"card": {...}, "state"}``.

    Makes the two schemas ``<prefix>NamedShipSchema`` and ``<prefix>InlineShipSchema`` once;
    each loads into ``ship(card, state)``, a missing state being ``blank_state()``.
    """

    def named(self: Schema, data: dict[str, Any], **_: Any) -> Any:
        return ship(catalog[names.canonical(data["ship"])], data["state"])

    def inline(self: Schema, data: dict[str, Any], **_: Any) -> Any:
        return ship(data["card"], data["state"])

    variants = [
        type(
            f"{prefix}NamedShipSchema",
            (Schema,),
            {
                "__doc__": "A catalog ship by name, with its state so far.",
                "ship": names.field(required=True),
                "state": fields.Nested(state, load_default=blank_state),
                "make": post_load(named),
            },
        ),
        type(
            f"{prefix}InlineShipSchema",
            (Schema,),
            {
                "__doc__": "A ship's card sent inline, with its state so far.",
                "card": fields.Nested(card, required=True),
                "state": fields.Nested(state, load_default=blank_state),
                "make": post_load(inline),
            },
        ),
    ]
    return lambda **kwargs: OneOf(variants, **kwargs)
