"""Helpers for the dreadnought tests: record cards, ships, and one call per step."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flask.testing import FlaskClient

from tests.http_helpers import call, check_of

BASE = "/v1/rulesets/dreadnought"


def card(
    ship_class: str = "Dreadnought",
    *batteries: tuple[float, int] | tuple[float, int, int],
    nationality: str = "British",
    crew: str = "average",
    name: str = "Test ship",
    **figures: Any,
) -> dict[str, Any]:
    """A record card; batteries as (calibre, barrels) or (calibre, barrels, turrets)."""
    guns = batteries or ((12, 1),)
    listed = []
    for battery in guns:
        entry: dict[str, Any] = {"calibre": battery[0], "barrels": battery[1]}
        if len(battery) == 3:
            entry["turrets"] = battery[2]
        listed.append(entry)
    return {
        "name": name,
        "class": ship_class,
        "nationality": nationality,
        "crew": crew,
        "batteries": listed,
        **figures,
    }


def ship(record: dict[str, Any] | str, **state: Any) -> dict[str, Any]:
    """A ship for a request: a catalog name or an inline card, with its state."""
    if isinstance(record, str):
        return {"ship": record, "state": state}
    return {"card": record, "state": state}


def gun(calibre: float = 12, barrels: int = 1, **kwargs: Any) -> dict[str, Any]:
    """A British average-crew Dreadnought (D8 gunner die) with one battery."""
    return ship(card("Dreadnought", (calibre, barrels), **kwargs))


def target(ship_class: str = "Dreadnought", **figures: Any) -> dict[str, Any]:
    """A target of a class; figures override the card, e.g. damage_reduction=0."""
    state = figures.pop("state", {})
    return ship(card(ship_class, (12, 2), **figures), **state)


def post(client: FlaskClient, step: str, body: dict[str, Any], status: int = 200) -> Any:
    return call(client, f"{BASE}/{step}", body, status=status)


def resolve(
    client: FlaskClient, step: str, body: dict[str, Any], values: list[int] | None = None
) -> dict[str, Any]:
    return call(client, f"{BASE}/{step}", body, values)


def refused(client: FlaskClient, step: str, body: dict[str, Any]) -> dict[str, Any]:
    return call(client, f"{BASE}/{step}", body, status=422)


def fire(
    client: FlaskClient,
    values: list[int],
    firer: dict[str, Any] | None = None,
    tgt: dict[str, Any] | None = None,
    battery: float = 12,
    distance: float = 20,
    **flags: Any,
) -> dict[str, Any]:
    """One battery's fire with supplied dice (defaults: a 12" gun at a Dreadnought, medium)."""
    body = {
        "firer": firer or gun(battery),
        "battery": battery,
        "target": tgt or target(),
        "distance": distance,
        **flags,
    }
    return resolve(client, "fire", body, values)


check = check_of


def applied(data: dict[str, Any], roll: str) -> dict[str, int]:
    return {m["source"]: m["value"] for m in check(data, roll)["applied"]}


def odds(
    client: FlaskClient, step: str, body: dict[str, Any]
) -> list[tuple[dict[str, Any], Fraction]]:
    data = post(client, f"{step}/odds", body)
    return [(o["result"], Fraction(o["probability"])) for o in data["outcomes"]]


def chance(outcomes: list[tuple[dict[str, Any], Fraction]], **wanted: Any) -> Fraction:
    """Total probability of the outcomes whose result has every wanted member."""
    return sum(
        (p for result, p in outcomes if all(result.get(k) == v for k, v in wanted.items())),
        Fraction(0),
    )


# --- a whole turn ---------------------------------------------------------------------------


def in_action(
    record: dict[str, Any] | str, side: str, *, fired_at: dict[str, int] | None = None, **state: Any
) -> dict[str, Any]:
    """A ship of an action: a catalog name or an inline card, its side and its state; the
    ships it has fired at before, each with the last turn."""
    return {
        "side": side,
        "ship": ship(record, **state),
        "fired_at": [{"target": name, "turn": at} for name, at in (fired_at or {}).items()],
    }


def declare(name: str, *fire: tuple[float, str, float], **declared: Any) -> dict[str, Any]:
    """A ship's declaration: each battery's fire as (calibre, target, distance)."""
    guns = [{"battery": b, "target": t, "distance": d} for b, t, d in fire]
    return {"ship": name, "fire": guns, **declared}


def turn_body(
    ships: list[dict[str, Any]], declarations: list[dict[str, Any]], turn: int = 2, **extra: Any
) -> dict[str, Any]:
    return {"state": {"turn": turn, "ships": ships}, "declarations": declarations, **extra}


def events(data: dict[str, Any], phase: str) -> list[dict[str, Any]]:
    return [e for e in data["result"]["events"] if e["phase"] == phase]
