"""The five ships of a SALVO fleet, as GET /ships lists them."""

from __future__ import annotations

from typing import Any, Final

from . import tables as t

CATALOG: Final[tuple[dict[str, Any], ...]] = tuple(
    {
        "ship": ship,
        "name": name,
        "size": size,
        "special": t.SPECIALS[ship]["special"],
        "special_aim": list(t.SPECIALS[ship]["aim"]),
        "special_effect": t.SPECIALS[ship]["answers"],
    }
    for ship, name, size in t.FLEET
)
