"""What a Salvo! refusal names and says.

Each refusal is a 422 a player reads: the member at fault (``errors[].field``) and the
words (``detail``), for single steps, the attack, the maneuver and the turn.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.salvo_solo_helpers import AJAX, SPEE, refused

# --- a step aimed at a sunk ship, a torpedo, an attack: the member at fault ---------------

SUNK_SPEE = {"ship": "Graf Spee", "state": {"flotation_hits": 6}}


# Ajax, its speed shot away, asked to Close in a turn.
AJAX_AT_SPEED_0_CLOSES = {
    "state": {
        "turn": 1,
        "weather": "Fair",
        "range": "Long",
        "player": {"ship": "Ajax", "state": {"speed_hits": 5}},
        "enemy": SPEE,
    },
    "player_action": "C",
}


@pytest.mark.parametrize(
    ("step", "body", "field"),
    [
        ("critical", {"target": SUNK_SPEE, "range": "Long"}, "target"),
        ("damage", {"ship": SUNK_SPEE, "hits": "F"}, "ship"),
        (
            "straddle",
            {"firer": AJAX, "target": SUNK_SPEE, "range": "Long", "guns_bearing": "bow"},
            "target",
        ),
    ],
)
def test_a_step_aimed_at_a_sunk_ship_names_the_member_at_fault(
    client: FlaskClient, step: str, body: dict[str, Any], field: str
) -> None:
    problem = refused(client, step, body)
    assert [error["field"] for error in problem["errors"]] == [field]
    assert "sunk" in problem["detail"]


def test_a_torpedo_refused_names_the_firer(client: FlaskClient) -> None:
    body = {"firer": SPEE, "target": AJAX, "range": "Short", "weather": "Fair"}
    problem = refused(client, "torpedo", body)
    assert [error["field"] for error in problem["errors"]] == ["firer"]
    assert "only a CL launches torpedoes" in problem["detail"]


@pytest.mark.parametrize(
    ("firer", "target", "field"),
    [
        (AJAX, SUNK_SPEE, "target"),
        ({"ship": "Ajax", "state": {"turret_hits": 10}}, SPEE, "firer"),  # silenced
    ],
)
def test_an_attack_refused_names_the_member_at_fault(
    client: FlaskClient, firer: dict[str, Any], target: dict[str, Any], field: str
) -> None:
    body = {
        "firer": firer,
        "target": target,
        "range": "Long",
        "weather": "Fair",
        "guns_bearing": "bow",
    }
    problem = refused(client, "attack", body)
    assert [error["field"] for error in problem["errors"]] == [field]


@pytest.mark.parametrize(
    ("step", "body", "field"),
    [
        (
            "turn",
            {
                "state": {
                    "turn": 1,
                    "weather": "Fair",
                    "range": "Long",
                    "player": {"ship": "Ajax", "state": {"flotation_hits": 10}},
                    "enemy": SPEE,
                },
                "player_action": "OB",
            },
            "state.player",
        ),
        (
            "turn",
            AJAX_AT_SPEED_0_CLOSES,
            "player_action",
        ),
        (
            "maneuver",
            {
                "range": "Long",
                "player_action": "OB",
                "enemy_action": "C",
                "enemy": {"ship": "Graf Spee", "state": {"speed_hits": 4}},
            },
            "enemy_action",
        ),
    ],
)
def test_turn_and_maneuver_refusals_name_the_member_at_fault(
    client: FlaskClient, step: str, body: dict[str, Any], field: str
) -> None:
    problem = refused(client, step, body)
    assert [error["field"] for error in problem["errors"]] == [field]


# --- what a refusal names and says --------------------------------------------------------


def test_straddle_by_a_silenced_ship_names_the_firer_and_says_why(client: FlaskClient) -> None:
    body = {
        "firer": {"ship": "Ajax", "state": {"turret_hits": 10}},
        "target": SPEE,
        "range": "Long",
        "guns_bearing": "bow",
    }
    problem = refused(client, "straddle", body)
    assert [error["field"] for error in problem["errors"]] == ["firer"]
    assert problem["detail"] == (
        "Ajax has 10 T hits, as many as its Turret rating of 5: it can't fire anymore"
    )


@pytest.mark.parametrize(
    ("step", "body", "ship"),
    [
        (
            "maneuver",
            {
                "range": "Long",
                "player_action": "OB",
                "enemy_action": "C",
                "enemy": {"ship": "Graf Spee", "state": {"speed_hits": 4}},
            },
            "Graf Spee",
        ),
        (
            "turn",
            AJAX_AT_SPEED_0_CLOSES,
            "Ajax",
        ),
    ],
)
def test_a_ship_at_speed_0_refused_an_action_is_told_which_action(
    client: FlaskClient, step: str, body: dict[str, Any], ship: str
) -> None:
    problem = refused(client, step, body)
    assert problem["detail"] == (f"{ship} has speed 0 and can only Offer Broadside (OB), not C")


# --- one Action after the other needs to know who has the initiative ----------------------


def test_maneuver_in_initiative_order_without_first_is_refused_saying_what_to_add(
    client: FlaskClient,
) -> None:
    body = {
        "range": "Short",
        "player_action": "C",
        "enemy_action": "W",
        "rules": {"simultaneous-actions": "in-initiative-order"},
    }
    problem = refused(client, "maneuver", body)
    assert problem["detail"] == (
        "under the reading in-initiative-order of ruling simultaneous-actions the Actions "
        "apply one after the other: say who has the initiative in first (player or enemy)"
    )
    assert [error["field"] for error in problem["errors"]] == ["first"]
