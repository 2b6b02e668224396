"""What a dreadnought refusal names and says, where a mutation run found it unguarded.

Each refusal is a 422 a player reads: the member at fault (``errors[].field``) and the
words (``detail``). Each test was checked against the mutants it is named for (the change
applied by hand, the test seen to fail, the change reverted); docs/testing.md lists them.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.dreadnought_helpers import card, gun, refused, ship, target
from tests.http_helpers import call, check_of

SUNK = {"destroyed": True}
BLOWN_UP = "Test ship is already blown up: nothing more happens to it"
ESCORT = ship(card("Destroyer", (4, 2), name="HMS Escort"))


def _fields(problem: dict[str, Any]) -> list[str]:
    return [error["field"] for error in problem["errors"]]


def _sunk(request_ship: dict[str, Any]) -> dict[str, Any]:
    return {**request_ship, "state": SUNK}


@pytest.mark.parametrize(
    ("step", "body", "field"),
    [
        (
            "fire",
            {"firer": _sunk(gun(12)), "battery": 12, "target": target(), "distance": 20},
            "firer",
        ),
        (
            "fire",
            {"firer": gun(12), "battery": 12, "target": _sunk(target()), "distance": 20},
            "target",
        ),
        ("torpedo", {"firer": _sunk(gun(12)), "target": target(), "distance": 10}, "firer"),
        ("torpedo", {"firer": gun(12), "target": _sunk(target()), "distance": 10}, "target"),
        ("critical", {"target": _sunk(target()), "throw": "double 6"}, "target"),
        ("rudder", {"ship": _sunk(target())}, "ship"),
    ],
)
def test_a_step_with_a_ship_already_blown_up_names_that_ship(
    client: FlaskClient, step: str, body: dict[str, Any], field: str
) -> None:
    problem = refused(client, step, body)
    assert _fields(problem) == [field]
    assert problem["detail"] == BLOWN_UP


@pytest.mark.parametrize(
    ("calibre", "tgt", "detail"),
    [
        (
            12,
            ESCORT,
            '11"-12" guns (12.0") are heavy weapons: they fire only at Armoured Cruisers and '
            "heavier, not at a Destroyer",
        ),
        (
            3,
            target(),
            '<5.5" guns (3.0") are light weapons: they fire only at Destroyers and Protected '
            "Cruisers, not at a Dreadnought",
        ),
    ],
)
def test_guns_refused_a_target_class_say_which_guns_and_which_class(
    client: FlaskClient, calibre: float, tgt: dict[str, Any], detail: str
) -> None:
    body = {"firer": gun(calibre), "battery": calibre, "target": tgt, "distance": 5}
    problem = refused(client, "fire", body)
    assert _fields(problem) == ["target"]
    assert problem["detail"] == detail


def test_a_battery_with_every_turret_lost_names_the_battery(client: FlaskClient) -> None:
    firer = ship(card("Dreadnought", (12, 4, 2)), turrets_lost=2)
    body = {"firer": firer, "battery": 12, "target": target(), "distance": 20}
    problem = refused(client, "fire", body)
    assert _fields(problem) == ["battery"]
    assert problem["detail"] == "Test ship's 12.0\" battery has no barrels left to fire"


def test_a_critical_on_an_escort_says_criticals_are_for_armoured_cruisers_and_heavier(
    client: FlaskClient,
) -> None:
    problem = refused(client, "critical", {"target": ESCORT, "throw": "double 6"})
    assert _fields(problem) == ["target"]
    assert problem["detail"] == (
        "HMS Escort is a Destroyer: critical hits apply only to Armoured Cruisers and "
        "heavier, not to lesser escort vessels"
    )


def test_repairing_a_rudder_that_is_not_jammed_says_so(client: FlaskClient) -> None:
    problem = refused(client, "rudder", {"ship": target()})
    assert _fields(problem) == ["ship.state.rudder_jammed"]
    assert problem["detail"] == "Test ship's rudder is not jammed: there is nothing to repair"


# --- the trail's words under each reading of barrels-bonus -----------------------------------


@pytest.mark.parametrize(
    ("reading", "source"),
    [
        ("beyond-the-first", "8 barrels: +1 per barrel beyond the first"),
        ("damage-every-barrel", "8 barrels: +1 per barrel (every barrel)"),
    ],
)
def test_the_damage_bonus_says_which_barrels_count(
    client: FlaskClient, reading: str, source: str
) -> None:
    firer = ship(card("Super Dreadnought", (15, 8), nationality="German"))
    body = {
        "firer": firer,
        "battery": 15,
        "target": {"ship": "Derfflinger"},
        "distance": 1,
        "rules": {"barrels-bonus": reading},
    }
    data = call(client, "/v1/rulesets/dreadnought/fire", body, [8, 7, 9])
    sources = [m["source"] for m in check_of(data, "damage")["applied"]]
    assert source in sources
