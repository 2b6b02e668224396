"""Every Fleet Action ruling: served by GET /v1/rulesets/fleet-action, and held to."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import dice
from service.engine.errors import RuleError
from service.engine.resolution import Resolution
from service.rulesets.fleet_action import steps as fleet_steps
from service.rulesets.fleet_action import tables as fleet_tables
from service.rulesets.fleet_action.ships import Ship as FleetShip
from tests.fleet_action_helpers import (
    PRINTED_CREW,
    check,
    fields_at_fault,
    refused,
    resolve,
    ship,
    shot,
)

RULINGS = {
    "never-worse-than-6",
    "visibility-torpedoes",
    "visibility-saves",
    "save-against-six",
    "unmodified-six",
    "save-order",
    "catastrophic-once",
    "catastrophic-state",
    "hull-floor",
    "sunk-ships",
    "range-edge",
    "torpedo-line-of-sight",
    "torpedoes-instead-of-guns",
    "initiative-ties",
    "target-crew",
    "initiative-each-turn",
    "picks-when-one-side-is-out",
    "sunk-before-going",
    "moving-without-firing",
    "measured-move",
    "game-over",
    "declared-fire",
}


def test_every_ruling_is_served_with_its_reason(client: FlaskClient) -> None:
    detail = client.get("/v1/rulesets/fleet-action").get_json()
    served = {ruling["id"]: ruling for ruling in detail["rulings"]}
    assert set(served) == RULINGS
    for ruling in served.values():
        assert ruling["question"] and ruling["ruling"] and ruling["reason"]
    steps = {step["name"]: (step["path"], step["odds_path"]) for step in detail["steps"]}
    base = "/v1/rulesets/fleet-action"
    assert steps == {
        "initiative": (f"{base}/initiative", None),
        "fire": (f"{base}/fire", f"{base}/fire/odds"),
        "torpedo": (f"{base}/torpedo", f"{base}/torpedo/odds"),
        "damage": (f"{base}/damage", None),
        "turn": (f"{base}/turn", None),
        "turn-odds": (f"{base}/turn/odds", None),
    }


# --- never-worse-than-6, visibility-torpedoes, visibility-saves, unmodified-six --------------


@pytest.mark.parametrize(
    ("crew", "visibility", "needed", "cap"),
    [
        ("Green", "Poor", 6, -1),
        ("Green", "Terrible", 6, -2),
        ("Seasoned", "Terrible", 6, -1),
        ("Seasoned", "Poor", 6, 0),
        ("Veteran", "Terrible", 6, 0),
        ("Elite", "Terrible", 5, 0),
    ],
)
def test_never_worse_than_6(
    client: FlaskClient, crew: str, visibility: str, needed: int, cap: int
) -> None:
    body = shot(ship("Corvette", crew), ship("Battleship"), 10, visibility)
    data = resolve(client, "fire", body, [6, needed - 1, 6])
    assert data["result"]["hits"] == 1  # the 6 hits, one below the number does not
    to_hit = check(data, "To Hit number")
    assert to_hit["final"] == needed
    capped = [m for m in to_hit["applied"] if m["source"] == "never worse than 6+"]
    assert capped == ([{"source": "never worse than 6+", "value": cap}] if cap else [])


@pytest.mark.parametrize(("visibility", "needed"), [("Clear", 4), ("Poor", 5), ("Terrible", 6)])
def test_visibility_touches_torpedoes(client: FlaskClient, visibility: str, needed: int) -> None:
    body = shot(ship("Destroyer", "Veteran"), ship("Cruiser"), 10, visibility)
    data = resolve(client, "torpedo", body, [needed - 1, needed, 1])
    assert data["result"]["hits"] == 1
    assert check(data, "To Hit number")["final"] == needed
    assert check(data, "torpedo die 2")["compared_with"] == f"To Hit {needed}+"


@pytest.mark.parametrize("visibility", ["Clear", "Poor", "Terrible"])
def test_visibility_leaves_armour_saves_alone(client: FlaskClient, visibility: str) -> None:
    # A Destroyer (5+) saves on a 5 in any visibility; a 4 fails.
    body = shot(ship("Corvette", "Elite"), ship("Destroyer"), 10, visibility)
    saved = resolve(client, "fire", body, [6, 1, 5])
    assert saved["result"]["saves"] == 1
    assert check(saved, "armour save for attack die 1")["applied"] == []
    failed = resolve(client, "fire", body, [6, 1, 4])
    assert failed["result"]["saves"] == 0


@pytest.mark.parametrize("visibility", ["Poor", "Terrible"])
def test_a_six_is_unmodified_in_any_visibility(client: FlaskClient, visibility: str) -> None:
    body = shot(ship("Cruiser", "Veteran"), ship("Cruiser"), 10, visibility)
    data = resolve(client, "fire", body, [6, 1, 1, 1, 3])
    assert data["result"]["catastrophic"] is True
    assert check(data, "attack die 1")["applied"] == []


# --- save-against-six ------------------------------------------------------------------------


@pytest.mark.parametrize("save_face", range(2, 7))
def test_a_2_plus_save_saves_against_a_six(client: FlaskClient, save_face: int) -> None:
    body = shot(ship("Destroyer", "Seasoned"), ship("Battleship"), 18)
    data = resolve(client, "fire", body, [6, 1, 1, save_face])
    assert data["result"]["saves"] == 1
    assert data["result"]["catastrophic"] is False
    assert data["result"]["target"]["hull_left"] == 6


def test_a_2_plus_save_of_1_against_a_six_is_catastrophic(client: FlaskClient) -> None:
    body = shot(ship("Destroyer", "Seasoned"), ship("Battleship"), 18)
    data = resolve(client, "fire", body, [6, 1, 1, 1])
    assert data["result"]["catastrophic"] is True
    assert data["result"]["target"]["sunk"] is True


# --- save-order and catastrophic-once ---------------------------------------------------------


def test_save_dice_follow_the_hits_in_roll_order(client: FlaskClient) -> None:
    # Hits: die 1 shows 6, die 3 shows 4. Saves against a Cruiser (4+).
    body = shot(ship("Destroyer", "Veteran"), ship("Cruiser"), 20)
    six_saved = resolve(client, "fire", body, [6, 1, 4, 5, 2])
    assert six_saved["result"]["catastrophic"] is False
    assert six_saved["result"]["hull_lost"] == 1
    assert check(six_saved, "armour save for attack die 1")["natural"] == 5
    assert check(six_saved, "armour save for attack die 3")["natural"] == 2
    six_failed = resolve(client, "fire", body, [6, 1, 4, 2, 5])
    assert six_failed["result"]["catastrophic"] is True
    assert six_failed["result"]["hull_lost"] == 1


def test_any_one_of_several_sixes_failing_is_catastrophic(client: FlaskClient) -> None:
    body = shot(ship("Destroyer", "Green"), ship("Cruiser"), 20)
    data = resolve(client, "fire", body, [6, 6, 6, 5, 5, 1])
    assert check(data, "armour save for attack die 3")["outcome"].endswith("catastrophic hit")
    assert data["result"]["catastrophic"] is True
    all_saved = resolve(client, "fire", body, [6, 6, 6, 5, 5, 4])
    assert all_saved["result"]["catastrophic"] is False


def test_two_sixes_through_sink_once_and_count_both(client: FlaskClient) -> None:
    body = shot(ship("Destroyer", "Green"), ship("Battleship"), 20)
    data = resolve(client, "fire", body, [6, 6, 1, 1, 1])
    assert data["result"]["hull_lost"] == 2
    assert data["result"]["catastrophic"] is True
    assert data["result"]["target"]["hull_lost"] == 6


def test_two_torpedo_sixes_sink_once(client: FlaskClient) -> None:
    body = shot(ship("Cruiser", "Green"), ship("Battleship"), 16)
    data = resolve(client, "torpedo", body, [6, 6, 1])
    assert data["result"]["hull_lost"] == 2
    assert data["result"]["catastrophic"] is True
    assert data["result"]["target"]["hull_left"] == 0


# --- catastrophic-state and hull-floor ----------------------------------------------------------


def test_a_catastrophic_hit_takes_all_the_hull(client: FlaskClient) -> None:
    body = shot(ship("Corvette", "Green"), ship("Battleship", name="Flagship"), 16)
    data = resolve(client, "fire", body, [6, 1, 1])
    assert data["result"]["hull_lost"] == 1
    assert data["result"]["target"] == {
        "name": "Flagship",
        "class": "Battleship",
        "crew": None,
        "hull": 6,
        "hull_lost": 6,
        "hull_left": 0,
        "sunk": True,
    }


def test_hull_stops_at_zero(client: FlaskClient) -> None:
    body = shot(ship("Battleship", "Elite"), ship("Destroyer", hull_lost=1), 20)
    data = resolve(client, "fire", body, [3, 4, 5, 1, 1, 1, 1, 1, 1])
    assert data["result"]["hull_lost"] == 3
    assert data["result"]["target"]["hull_lost"] == 2
    assert data["result"]["target"]["hull_left"] == 0
    damaged = resolve(client, "damage", {"ship": ship("Cruiser"), "hull_lost": 100})
    assert damaged["result"]["ship"]["hull_lost"] == 4


# --- sunk-ships -------------------------------------------------------------------------------


def test_a_sunk_ship_neither_fires_nor_is_fired_at(client: FlaskClient) -> None:
    sunk_destroyer = ship("Destroyer", "Elite", hull_lost=2)
    cruiser = ship("Cruiser", "Elite")
    for step in ("fire", "torpedo", "fire/odds", "torpedo/odds"):
        assert fields_at_fault(refused(client, step, shot(sunk_destroyer, cruiser, 10))) == [
            "firer"
        ]
        assert fields_at_fault(refused(client, step, shot(cruiser, sunk_destroyer, 10))) == [
            "target"
        ]
    problem = refused(client, "damage", {"ship": sunk_destroyer, "hull_lost": 1})
    assert fields_at_fault(problem) == ["ship"]
    assert "already sunk" in problem["detail"]


def test_more_hull_lost_than_the_class_has_is_refused(client: FlaskClient) -> None:
    problem = refused(client, "damage", {"ship": ship("Corvette", hull_lost=2), "hull_lost": 0})
    assert fields_at_fault(problem) == ["ship.hull_lost"]
    body = shot(ship("Corvette", "Green", hull_lost=3), ship("Cruiser"), 10)
    assert fields_at_fault(refused(client, "fire", body)) == ["firer.hull_lost"]


# --- range-edge and torpedo-line-of-sight -----------------------------------------------------


def test_range_is_up_to_and_including_the_printed_range(client: FlaskClient) -> None:
    body = shot(ship("Battleship", "Green"), ship("Cruiser"), 48)
    resolve(client, "fire", body, [1] * 6)
    resolve(client, "fire", {**body, "range": 47.75}, [1] * 6)
    resolve(client, "fire", {**body, "range": 0}, [1] * 6)
    for step in ("fire", "fire/odds"):
        problem = refused(client, step, {**body, "range": 48.01})
        assert fields_at_fault(problem) == ["range"]
        assert '48.01"' in problem["detail"]


@pytest.mark.parametrize("step", ["fire", "torpedo", "fire/odds", "torpedo/odds"])
def test_no_line_of_sight_no_shot(client: FlaskClient, step: str) -> None:
    body = shot(ship("Cruiser", "Elite"), ship("Destroyer"), 10, line_of_sight=False)
    problem = refused(client, step, body)
    assert fields_at_fault(problem) == ["line_of_sight"]


def test_distances_are_json_numbers_only(client: FlaskClient) -> None:
    body = shot(ship("Cruiser", "Elite"), ship("Destroyer"), 10)
    for bad in ("10", True, None, -1, 1001):
        response = client.post("/v1/rulesets/fleet-action/fire", json={**body, "range": bad})
        assert response.status_code == 422
        assert response.get_json()["type"].endswith("validation")


# --- torpedoes-instead-of-guns ----------------------------------------------------------------


def test_the_service_keeps_no_turn_between_requests(client: FlaskClient) -> None:
    # Guns then torpedoes from the same ship are both resolved: the players keep to one.
    body = shot(ship("Cruiser", "Elite"), ship("Battleship"), 10)
    resolve(client, "fire", body, [1, 1, 1, 1])
    resolve(client, "torpedo", body, [1, 1, 1])


# --- initiative-ties --------------------------------------------------------------------------


def test_ties_read_two_dice_a_round(client: FlaskClient) -> None:
    data = resolve(client, "initiative", {}, [4, 4, 2, 2, 1, 3])
    assert data["result"] == {"winner": "B", "first": "A", "second": "B", "ties": 2}
    assert len(data["rolls"]) == 6
    assert data["rolls"][4]["label"] == "initiative round 3: player A"


def test_twenty_ties_are_the_limit(client: FlaskClient) -> None:
    nineteen = resolve(client, "initiative", {}, [5, 5] * 19 + [6, 1])
    assert nineteen["result"]["ties"] == 19
    problem = refused(client, "initiative", {}, [5, 5] * 20)
    assert problem["type"].endswith("limit")
    assert "20 rounds" in problem["detail"]


@settings(max_examples=150, deadline=None)
@given(seed=st.text(min_size=1, max_size=20), nonce=st.integers(0, 2**53 - 1))
def test_seeded_initiative_always_names_a_winner_by_the_last_round(
    app: Flask, seed: str, nonce: int
) -> None:
    client = app.test_client()
    data = resolve(client, "initiative", {"dice": {"seed": seed, "nonce": nonce}})
    result = data["result"]
    assert len(data["rolls"]) == 2 * (result["ties"] + 1)
    values = [roll["values"][0] for roll in data["rolls"]]
    pairs = list(zip(values[::2], values[1::2], strict=True))
    assert all(a == b for a, b in pairs[:-1])
    a, b = pairs[-1]
    assert a != b
    assert result["winner"] == ("A" if a > b else "B")
    assert {result["first"], result["second"]} == {"A", "B"}
    assert result["second"] == result["winner"]


# --- target-crew --------------------------------------------------------------------------------


@pytest.mark.parametrize("crew", [None, *PRINTED_CREW])
def test_the_target_crew_changes_nothing(client: FlaskClient, crew: str | None) -> None:
    body = shot(ship("Cruiser", "Veteran"), ship("Cruiser", crew), 20)
    data = resolve(client, "fire", body, [4, 6, 1, 5, 5, 3, 2])
    result = data["result"]
    assert (result["hits"], result["saves"], result["hull_lost"]) == (3, 1, 2)
    assert result["catastrophic"] is True  # the 6 met the save of 3 against Armour 4+
    assert result["target"]["crew"] == crew


def test_a_firer_needs_a_crew(client: FlaskClient) -> None:
    body = shot(ship("Cruiser"), ship("Cruiser"), 20)
    response = client.post("/v1/rulesets/fleet-action/fire", json=body)
    assert response.status_code == 422
    assert fields_at_fault(response.get_json()) == ["firer.crew"]


# --- never-worse-than-6: a cap only when the number would pass 6 --------------------------


@pytest.mark.parametrize(
    ("crew", "visibility", "needed", "cap"),
    [
        ("Green", "Clear", 6, None),  # exactly 6: nothing to cap
        ("Seasoned", "Poor", 6, None),  # exactly 6 again, through visibility
        ("Green", "Poor", 6, -1),  # 7 capped to 6
        ("Elite", "Terrible", 5, None),
    ],
)
def test_never_worse_than_6_adds_nothing_at_exactly_6(
    crew: str, visibility: str, needed: int, cap: int | None
) -> None:
    to_hit, mods = fleet_steps.to_hit_number(crew, visibility)
    assert to_hit == needed
    capped = [m.value for m in mods if m.source.startswith("never worse")]
    assert capped == ([] if cap is None else [cap])
    assert [m.source for m in mods][0] == f"{visibility} visibility"


def test_never_worse_than_6_trail_at_exactly_6_over_http(client: FlaskClient) -> None:
    body = {
        "firer": {"class": "Corvette", "crew": "Green"},
        "target": {"class": "Battleship"},
        "range": 10,
        "line_of_sight": True,
        "visibility": "Clear",
    }
    data = resolve(client, "fire", body, [6, 5, 6])
    to_hit = check(data, "To Hit number")
    assert to_hit["final"] == 6 and to_hit["applied"] == []
    assert data["result"]["hits"] == 1


def test_worst_to_hit_is_six_on_a_d6() -> None:
    assert fleet_tables.WORST_TO_HIT == fleet_tables.DIE == 6


# --- what a refusal says ------------------------------------------------------------------


def test_fleet_torpedoes_refused_name_the_classes_that_carry_them(client: FlaskClient) -> None:
    body = {
        "firer": {"class": "Battleship", "crew": "Green"},
        "target": {"class": "Cruiser"},
        "range": 10,
        "line_of_sight": True,
    }
    response = client.post("/v1/rulesets/fleet-action/torpedo", json=body)
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["detail"] == "a Battleship carries no torpedoes (only: Destroyer, Cruiser)"
    assert [error["field"] for error in problem["errors"]] == ["firer.class"]


def test_fleet_initiative_tied_every_round_says_what_to_do(client: FlaskClient) -> None:
    rounds = fleet_tables.MAX_INITIATIVE_ROUNDS
    body = {"dice": {"values": [3] * (2 * rounds)}}
    response = client.post("/v1/rulesets/fleet-action/initiative", json=body)
    assert response.status_code == 422
    assert response.get_json()["detail"] == (
        f"initiative tied {rounds} rounds in a row, the most one request rolls: roll "
        "initiative again (with seeded dice, count the nonce up)"
    )


_FLEET_FIRERS_WITHOUT_CREW = [
    (fleet_steps.fire, fleet_steps.FireInput),
    (fleet_steps.torpedo, fleet_steps.TorpedoInput),
]


@pytest.mark.parametrize(("step", "make_input"), _FLEET_FIRERS_WITHOUT_CREW)
def test_fleet_a_firer_without_crew_is_refused_naming_firer_crew(
    step: Any, make_input: Any
) -> None:
    # The HTTP schema already requires the firer's crew; the step refuses it too, for any
    # caller that builds the input itself, and names the same member.
    inp = make_input(
        firer=FleetShip.of("Cruiser", name="Cruiser 1"),
        target=FleetShip.of("Cruiser"),
        range=5,
        line_of_sight=True,
    )
    with pytest.raises(RuleError) as refusal:
        step(inp, Resolution(dice.SuppliedDice([6] * 12)))
    assert refusal.value.field == "firer.crew"
    assert refusal.value.detail == (
        "Cruiser 1 fires, so it needs a crew quality (Green, Seasoned, Veteran, Elite)"
    )


@pytest.mark.parametrize("step", ["fire", "torpedo"])
def test_fleet_no_line_of_sight_refusal_says_who_cannot_see_whom(
    client: FlaskClient, step: str
) -> None:
    body = {
        "firer": {"class": "Cruiser", "crew": "Green", "name": "Cruiser 1"},
        "target": {"class": "Destroyer"},
        "range": 5,
        "line_of_sight": False,
    }
    response = client.post(f"/v1/rulesets/fleet-action/{step}", json=body)
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["detail"] == (
        "Cruiser 1 has no line of sight to the Destroyer: pick a target it can see"
    )
    assert [error["field"] for error in problem["errors"]] == ["line_of_sight"]
