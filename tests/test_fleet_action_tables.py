"""Every row of the Fleet Action tables, every crew level, class and visibility level, the
catastrophic rule, torpedoes, damage and initiative, through the HTTP API with supplied dice.
"""

from __future__ import annotations

import itertools

import pytest
from flask.testing import FlaskClient

from tests.fleet_action_helpers import (
    PRINTED_CLASSES,
    PRINTED_CREW,
    PRINTED_VISIBILITY,
    TORPEDO_RANGE,
    armour,
    attack,
    check,
    fields_at_fault,
    gun_range,
    hull,
    printed_to_hit,
    refused,
    resolve,
    ship,
    shot,
)

CLASSES = list(PRINTED_CLASSES)
CREWS = list(PRINTED_CREW)
VISIBILITIES = list(PRINTED_VISIBILITY)
TORPEDO_CLASSES = [name for name, row in PRINTED_CLASSES.items() if row[5]]
NO_TORPEDO_CLASSES = [name for name, row in PRINTED_CLASSES.items() if not row[5]]

# --- the tables as data ----------------------------------------------------------------------


def test_tables_serve_the_printed_crew_quality(client: FlaskClient) -> None:
    tables = client.get("/v1/rulesets/fleet-action/tables").get_json()["tables"]
    rows = {row["level"]: row["to_hit"] for row in tables["crew_quality"]["rows"]}
    assert rows == PRINTED_CREW


def test_tables_and_ships_serve_the_printed_classes(client: FlaskClient) -> None:
    tables = client.get("/v1/rulesets/fleet-action/tables").get_json()["tables"]
    ships = client.get("/v1/rulesets/fleet-action/ships").get_json()["ships"]
    keys = ("speed", "attack", "range", "armour", "hull", "torpedoes")
    for rows in (tables["ship_classes"]["rows"], ships):
        assert {row["name"]: tuple(row[k] for k in keys) for row in rows} == PRINTED_CLASSES


def test_tables_serve_visibility_and_torpedoes(client: FlaskClient) -> None:
    tables = client.get("/v1/rulesets/fleet-action/tables").get_json()["tables"]
    visibility = tables["visibility"]
    assert {r["visibility"]: r["to_hit_modifier"] for r in visibility["rows"]} == (
        PRINTED_VISIBILITY
    )
    assert visibility["worst_to_hit"] == 6
    assert tables["torpedoes"]["range"] == TORPEDO_RANGE
    assert tables["torpedoes"]["dice"] == 3
    assert tables["torpedoes"]["ignore_armour"] is True


# --- crew quality and visibility: the To Hit number, face by face ----------------------------


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("crew", CREWS)
@pytest.mark.parametrize("face", range(1, 7))
def test_to_hit_for_every_crew_visibility_and_face(
    client: FlaskClient, crew: str, visibility: str, face: int
) -> None:
    # A Corvette rolls 2 dice: the face under test and a 1 (never a hit); a hit is saved
    # by the Battleship's 2+ with a 6, so only the To Hit decides.
    hits = face >= printed_to_hit(crew, visibility)
    body = shot(ship("Corvette", crew), ship("Battleship"), 10, visibility)
    data = resolve(client, "fire", body, [face, 1] + ([6] if hits else []))
    assert data["result"]["hits"] == int(hits)
    to_hit = check(data, "To Hit number")
    assert to_hit["natural"] == PRINTED_CREW[crew]
    assert to_hit["final"] == printed_to_hit(crew, visibility)
    assert check(data, "attack die 1")["compared_with"] == f"To Hit {to_hit['final']}+"


@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_visibility_is_named_as_a_modifier(client: FlaskClient, visibility: str) -> None:
    body = shot(ship("Corvette", "Veteran"), ship("Battleship"), 10, visibility)
    applied = check(resolve(client, "fire", body, [1, 1]), "To Hit number")["applied"]
    expected = PRINTED_VISIBILITY[visibility]
    assert applied == (
        [{"source": f"{visibility} visibility", "value": expected}] if expected else []
    )


# --- the classes: attack dice, gun range, armour, hull -----------------------------------------


@pytest.mark.parametrize("ship_class", CLASSES)
def test_each_class_rolls_its_attack_dice(client: FlaskClient, ship_class: str) -> None:
    body = shot(ship(ship_class, "Green"), ship("Cruiser"), 1)
    data = resolve(client, "fire", body, [1] * attack(ship_class))
    assert data["rolls"] == [
        {
            "label": "attack",
            "notation": f"{attack(ship_class)}d6",
            "values": [1] * attack(ship_class),
            "total": attack(ship_class),
        }
    ]
    assert data["result"] == {
        "hits": 0,
        "saves": 0,
        "hull_lost": 0,
        "catastrophic": False,
        "target": {
            "name": None,
            "class": "Cruiser",
            "crew": None,
            "hull": 4,
            "hull_lost": 0,
            "hull_left": 4,
            "sunk": False,
        },
    }
    too_many = refused(client, "fire", body, [1] * (attack(ship_class) + 1))
    assert fields_at_fault(too_many) == ["dice.values"]


@pytest.mark.parametrize("ship_class", CLASSES)
def test_each_class_gun_range(client: FlaskClient, ship_class: str) -> None:
    reach = gun_range(ship_class)
    inside = shot(ship(ship_class, "Green"), ship("Cruiser"), reach)
    resolve(client, "fire", inside, [1] * attack(ship_class))
    beyond = refused(client, "fire", {**inside, "range": reach + 0.5})
    assert fields_at_fault(beyond) == ["range"]
    assert f'{reach}"' in beyond["detail"]


@pytest.mark.parametrize("target_class", CLASSES)
@pytest.mark.parametrize("save_face", range(1, 7))
def test_each_class_armour_save(client: FlaskClient, target_class: str, save_face: int) -> None:
    # One hit on a 5 (not a 6), then the target's save.
    body = shot(ship("Corvette", "Elite"), ship(target_class), 10)
    data = resolve(client, "fire", body, [5, 1, save_face])
    saved = save_face >= armour(target_class)
    assert data["rolls"][1] == {
        "label": "armour save",
        "notation": "1d6",
        "values": [save_face],
        "total": save_face,
    }
    assert data["result"]["saves"] == int(saved)
    assert data["result"]["hull_lost"] == int(not saved)
    assert data["result"]["catastrophic"] is False
    assert check(data, "armour save for attack die 1")["compared_with"] == (
        f"Armour {armour(target_class)}+"
    )


@pytest.mark.parametrize("ship_class", CLASSES)
def test_each_class_hull(client: FlaskClient, ship_class: str) -> None:
    full = hull(ship_class)
    afloat = resolve(client, "damage", {"ship": ship(ship_class), "hull_lost": full - 1})
    assert afloat["result"] == {
        "ship": {
            "name": None,
            "class": ship_class,
            "crew": None,
            "hull": full,
            "hull_lost": full - 1,
            "hull_left": 1,
            "sunk": False,
        },
        "sunk": False,
        "sunk_by": None,
    }
    assert afloat["rolls"] == []
    last = resolve(client, "damage", {"ship": ship(ship_class, hull_lost=full - 1), "hull_lost": 1})
    assert last["result"]["ship"]["hull_left"] == 0
    assert last["result"]["sunk"] is True
    assert last["result"]["sunk_by"] == "hull"


def test_each_unsaved_hit_knocks_off_one_hull(client: FlaskClient) -> None:
    # A Cruiser (4+ to hit with a Veteran crew) hits a Cruiser three times (4, 5, 4): saves
    # 1, 4, 3 let two through.
    body = shot(ship("Cruiser", "Veteran"), ship("Cruiser", name="Target"), 20)
    data = resolve(client, "fire", body, [4, 5, 4, 2, 1, 4, 3])
    assert data["result"]["hits"] == 3
    assert data["result"]["saves"] == 1
    assert data["result"]["hull_lost"] == 2
    assert data["result"]["target"]["hull_left"] == 2
    assert data["result"]["target"]["sunk"] is False


def test_zero_hull_sinks(client: FlaskClient) -> None:
    body = shot(ship("Cruiser", "Veteran"), ship("Destroyer"), 20)
    data = resolve(client, "fire", body, [4, 5, 1, 1, 1, 1])
    assert data["result"]["hull_lost"] == 2
    assert data["result"]["catastrophic"] is False
    assert data["result"]["target"]["sunk"] is True


# --- the catastrophic rule ------------------------------------------------------------------


@pytest.mark.parametrize("save_face", range(1, 7))
def test_a_six_whose_save_fails_sinks_outright(client: FlaskClient, save_face: int) -> None:
    # A Battleship (Hull 6, Armour 2+) takes one hit on a 6.
    body = shot(ship("Cruiser", "Green"), ship("Battleship"), 30)
    data = resolve(client, "fire", body, [6, 1, 1, 1, save_face])
    failed = save_face < armour("Battleship")
    assert data["result"]["catastrophic"] is failed
    assert data["result"]["target"]["sunk"] is failed
    assert data["result"]["target"]["hull_left"] == (0 if failed else 6)


@pytest.mark.parametrize("face", [3, 4, 5])
def test_a_failed_save_against_a_lower_face_is_one_hull(client: FlaskClient, face: int) -> None:
    body = shot(ship("Cruiser", "Elite"), ship("Battleship"), 30)
    data = resolve(client, "fire", body, [face, 1, 1, 1, 1])
    assert data["result"]["catastrophic"] is False
    assert data["result"]["hull_lost"] == 1
    assert data["result"]["target"]["hull_left"] == 5


# --- torpedoes ------------------------------------------------------------------------------


@pytest.mark.parametrize("ship_class", TORPEDO_CLASSES)
def test_torpedo_classes_fire_three_dice(client: FlaskClient, ship_class: str) -> None:
    body = shot(ship(ship_class, "Veteran"), ship("Battleship"), TORPEDO_RANGE)
    data = resolve(client, "torpedo", body, [4, 5, 1])
    assert [roll["notation"] for roll in data["rolls"]] == ["3d6"]
    # Armour is ignored: no save is rolled, each hit is a Hull point.
    assert data["result"] == {
        "hits": 2,
        "hull_lost": 2,
        "catastrophic": False,
        "target": {
            "name": None,
            "class": "Battleship",
            "crew": None,
            "hull": 6,
            "hull_lost": 2,
            "hull_left": 4,
            "sunk": False,
        },
    }
    assert fields_at_fault(refused(client, "torpedo", body, [4, 5, 1, 6])) == ["dice.values"]


@pytest.mark.parametrize("ship_class", NO_TORPEDO_CLASSES)
def test_other_classes_carry_no_torpedoes(client: FlaskClient, ship_class: str) -> None:
    body = shot(ship(ship_class, "Elite"), ship("Destroyer"), 5)
    problem = refused(client, "torpedo", body)
    assert problem["type"].endswith("rule-violation")
    assert fields_at_fault(problem) == ["firer.class"]
    assert fields_at_fault(refused(client, "torpedo/odds", body)) == ["firer.class"]


@pytest.mark.parametrize("ship_class", TORPEDO_CLASSES)
def test_torpedo_range_is_16_inches_whatever_the_gun_range(
    client: FlaskClient, ship_class: str
) -> None:
    body = shot(ship(ship_class, "Green"), ship("Cruiser"), TORPEDO_RANGE)
    resolve(client, "torpedo", body, [1, 1, 1])
    problem = refused(client, "torpedo", {**body, "range": TORPEDO_RANGE + 0.1})
    assert fields_at_fault(problem) == ["range"]


@pytest.mark.parametrize("crew", CREWS)
def test_a_torpedo_six_sinks_whatever_the_hull(client: FlaskClient, crew: str) -> None:
    body = shot(ship("Destroyer", crew), ship("Battleship"), 8)
    data = resolve(client, "torpedo", body, [1, 6, 1])
    assert data["result"]["hits"] == 1
    assert data["result"]["hull_lost"] == 1
    assert data["result"]["catastrophic"] is True
    assert data["result"]["target"]["sunk"] is True
    assert check(data, "torpedo die 2")["outcome"] == "hit: unmodified 6"


@pytest.mark.parametrize("crew", CREWS)
@pytest.mark.parametrize("face", range(1, 6))
def test_torpedo_dice_use_the_crew_to_hit(client: FlaskClient, crew: str, face: int) -> None:
    body = shot(ship("Cruiser", crew), ship("Battleship"), 8)
    data = resolve(client, "torpedo", body, [face, face, face])
    hit = face >= PRINTED_CREW[crew]
    assert data["result"]["hits"] == 3 * hit
    assert data["result"]["catastrophic"] is False


# --- initiative -----------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b"), [p for p in itertools.product(range(1, 7), repeat=2)])
def test_initiative_every_pair_of_dice(client: FlaskClient, a: int, b: int) -> None:
    if a == b:
        data = resolve(client, "initiative", {}, [a, b, 2, 1])
        assert data["result"] == {"winner": "A", "first": "B", "second": "A", "ties": 1}
        assert check(data, "initiative round 1: player A")["outcome"] == "tie: roll again"
        return
    data = resolve(client, "initiative", {}, [a, b])
    winner, loser = ("A", "B") if a > b else ("B", "A")
    assert data["result"] == {"winner": winner, "first": loser, "second": winner, "ties": 0}
    assert [r["label"] for r in data["rolls"]] == [
        "initiative round 1: player A",
        "initiative round 1: player B",
    ]


def test_initiative_tie_asks_for_the_next_round(client: FlaskClient) -> None:
    problem = refused(client, "initiative", {}, [4, 4])
    assert problem["type"].endswith("dice")
    assert "initiative round 2: player A" in problem["detail"]


def test_damage_with_a_catastrophic_hit(client: FlaskClient) -> None:
    data = resolve(
        client,
        "damage",
        {"ship": ship("Battleship", "Elite"), "hull_lost": 0, "catastrophic": True},
    )
    assert data["result"]["ship"]["hull_left"] == 0
    assert data["result"]["ship"]["crew"] == "Elite"
    assert data["result"]["sunk"] is True
    assert data["result"]["sunk_by"] == "catastrophic hit"
