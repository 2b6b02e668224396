"""The computer captain (captain b here), the rating, and the ruleset as data."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.http_helpers import check_of
from tests.salvo_grid_helpers import (
    ALL_B,
    BASE,
    FLEET_A,
    FLEET_B,
    diagonal_cruiser,
    ocean_a,
    ocean_b,
    refused,
    resolve,
    round_,
)


def aim(
    client: FlaskClient,
    view: dict[str, Any],
    values: list[int] | None = None,
    rules: dict[str, str] | None = None,
    **own: Any,
) -> dict[str, Any]:
    body = {"ocean": ocean_b(**own), "view": view, "dice": {"seed": "cpu", "nonce": 1}}
    return resolve(client, "computer", {**body, "rules": rules or {}}, values)


def reasons(result: dict[str, Any]) -> list[tuple[str, str]]:
    return [(a["square"], a["reason"]) for a in result["aims"]]


# --- the computer captain ---------------------------------------------------------------------


def test_it_fires_at_random_until_it_hits(client: FlaskClient) -> None:
    """ruling computer-captain: one die per shot among the squares left, in reading order."""
    data = aim(client, {}, [1, 1, 1, 1, 1])
    assert [r["notation"] for r in data["rolls"]] == ["1d100", "1d99", "1d98", "1d97", "1d96"]
    assert reasons(data["result"]) == [(sq, "at random") for sq in ("A1", "B1", "C1", "D1", "E1")]
    assert data["result"]["salvo"] == {"shots": ["A1", "B1", "C1", "D1", "E1"], "specials": []}
    assert data["result"]["salvo_size"] == 5


def test_the_same_seed_gives_the_same_salvo(client: FlaskClient) -> None:
    first = aim(client, {"misses": ["A1"]})["result"]
    assert aim(client, {"misses": ["A1"]})["result"] == first
    assert "A1" not in first["salvo"]["shots"]
    assert len(set(first["salvo"]["shots"])) == 5


def test_contacts_first_then_the_squares_next_to_each_hit(client: FlaskClient) -> None:
    """ruling computer-captain, reading contacts-first (the text's list is the default)."""
    view = {"hits": ["E5"], "misses": ["E4"], "contacts": ["H8"]}
    first = {"computer-captain": "contacts-first"}
    data = aim(client, view, [1], first, specials_used=["destroyer", "battleship"])
    assert reasons(data["result"]) == [
        ("H8", "contact"),
        ("D5", "next to a hit"),
        ("F5", "next to a hit"),
        ("E6", "next to a hit"),
        ("A1", "at random"),
    ]
    assert [r["notation"] for r in data["rolls"]] == ["1d94"]


def test_more_squares_next_to_hits_than_shots_are_rolled_for(client: FlaskClient) -> None:
    view = {"hits": ["B2", "H8"]}
    data = aim(client, view, [8, 1, 1, 1, 1], specials_used=["destroyer", "battleship"])
    assert [r["notation"] for r in data["rolls"]] == ["1d8", "1d7", "1d6", "1d5", "1d4"]
    assert reasons(data["result"]) == [
        ("H9", "next to a hit"),
        ("B1", "next to a hit"),
        ("A2", "next to a hit"),
        ("C2", "next to a hit"),
        ("B3", "next to a hit"),
    ]


def test_heavy_shell_and_depth_charges_come_down_on_a_wounded_ship(client: FlaskClient) -> None:
    data = aim(client, {"hits": ["A1"], "misses": ["A2"]}, [1, 1, 1, 1, 1])
    salvo = data["result"]["salvo"]
    assert salvo["specials"] == [
        {"ship": "destroyer", "square": "A1", "orientation": "horizontal"},
        {"ship": "battleship", "square": "A1"},
    ]
    # B1 and C1 are under the charges, B2 under the shell: no shot goes there.
    assert salvo["shots"] == ["D1", "E1", "F1", "G1", "H1"]
    assert [r["notation"] for r in data["rolls"]] == ["1d95", "1d94", "1d93", "1d92", "1d91"]
    # The salvo it aims is legal: the salvo step takes it as it is.
    round_result = round_(client, b_shots=salvo["shots"], b_specials=salvo["specials"],
                          a=ocean_a(shots_received=["A1", "A2"]))  # fmt: skip
    fired = [(e["square"], e["by"]) for e in round_result["b"]["told"]["fire"]]
    assert fired[:3] == [("B1", "depth charges"), ("C1", "depth charges"), ("B2", "heavy shell")]


def test_areas_with_the_most_new_squares_ties_rolled(client: FlaskClient) -> None:
    """ruling computer-captain: six lines of 3 through E5 tie, then two 2x2 blocks."""
    data = aim(client, {"hits": ["E5"]}, [1, 2, 1, 1, 1, 1])
    assert [(r["label"], r["notation"]) for r in data["rolls"][:2]] == [
        ("computer depth charges", "1d6"),
        ("computer heavy shell", "1d2"),
    ]
    assert data["result"]["salvo"]["specials"] == [
        {"ship": "destroyer", "square": "C5", "orientation": "horizontal"},
        {"ship": "battleship", "square": "E5"},
    ]
    assert reasons(data["result"])[0] == ("E4", "next to a hit")


def test_it_dives_once_its_submarine_has_been_hit(client: FlaskClient) -> None:
    hit = aim(client, {}, shots_received=["H2"])["result"]["salvo"]["specials"]
    assert hit == [{"ship": "submarine"}]
    assert aim(client, {}, shots_received=["J1"])["result"]["salvo"]["specials"] == []
    used = aim(client, {}, shots_received=["H2"], specials_used=["submarine"])
    assert used["result"]["salvo"]["specials"] == []


def test_a_sunk_ship_brings_no_special_and_no_shot(client: FlaskClient) -> None:
    own: dict[str, Any] = {"shots_received": ["A10", "B10", "H2"]}  # destroyer sunk, submarine hit
    data = aim(client, {"hits": ["A1"]}, **own)
    ships = [s["ship"] for s in data["result"]["salvo"]["specials"]]
    assert ships == ["battleship", "submarine"]
    assert data["result"]["salvo_size"] == 4


def test_no_salvo_once_the_battle_is_over(client: FlaskClient) -> None:
    body = {"ocean": ocean_b(shots_received=ALL_B), "view": {}}
    assert "no ship afloat" in refused(client, "computer", body)["detail"]
    sunk = FLEET_A  # every ship of captain a's fleet, shown sunk where it lies
    problem = refused(client, "computer", {"ocean": ocean_b(), "view": {"sunk": sunk}})
    assert problem["errors"][0]["field"] == "view.sunk"


# --- rating --------------------------------------------------------------------------------------


def rate(client: FlaskClient, a: int, b: int, result: str) -> tuple[int, int]:
    data = resolve(client, "rating", {"a": a, "b": b, "result": result})
    assert data["rolls"] == []
    out = data["result"]
    assert out["a"]["change"] == -out["b"]["change"]  # the loser drops what the winner gains
    return out["a"]["new_rating"], out["b"]["new_rating"]


def test_16_between_equal_ratings(client: FlaskClient) -> None:
    assert rate(client, 1000, 1000, "a-wins") == (1016, 984)
    assert rate(client, 1000, 1000, "b-wins") == (984, 1016)


def test_less_for_beating_a_weaker_captain_more_for_a_stronger(client: FlaskClient) -> None:
    # 1200 against 1000: expected 0.7597, so 32 x 0.2403 = 7.69 -> 8; the upset 24.31 -> 24.
    assert rate(client, 1200, 1000, "a-wins") == (1208, 992)
    assert rate(client, 1000, 1200, "a-wins") == (1024, 1176)


def test_a_draw_is_half_a_win(client: FlaskClient) -> None:
    assert rate(client, 1000, 1000, "draw") == (1000, 1000)
    assert rate(client, 1000, 1200, "draw") == (1008, 1192)  # lifts the lower-rated a little


def test_a_battle_moves_a_rating_by_at_most_32(client: FlaskClient) -> None:
    assert rate(client, 0, 3000, "a-wins") == (32, 2968)
    assert rate(client, 3000, 0, "a-wins") == (3000, 0)


def test_ratings_stay_in_range_moving_both_alike(client: FlaskClient) -> None:
    """ruling rating: a change that would leave 0..10000 is cut for both captains."""
    assert rate(client, 9990, 9990, "a-wins") == (10000, 9980)
    assert rate(client, 5, 5, "a-wins") == (10, 0)


def test_swapping_the_captains_mirrors_the_result(client: FlaskClient) -> None:
    for a, b in ((1000, 1337), (1500, 900), (1234, 1234)):
        forward = rate(client, a, b, "a-wins")
        assert rate(client, b, a, "b-wins") == forward[::-1]


@pytest.mark.parametrize(
    "body",
    [
        {"a": 1000, "b": 1000, "result": "a"},
        {"a": 1000.5, "b": 1000, "result": "draw"},
        {"a": -1, "b": 1000, "result": "draw"},
        {"a": 1000, "result": "draw"},
    ],
)
def test_a_rating_request_out_of_shape_is_refused(
    client: FlaskClient, body: dict[str, Any]
) -> None:
    assert refused(client, "rating", body)["type"].endswith("#validation")


# --- the ruleset as data ----------------------------------------------------------------------


def test_ships_and_tables_are_data(client: FlaskClient) -> None:
    """ruling fleet: Carrier 5, Battleship 4, Cruiser 3, Submarine 3, Destroyer 2."""
    ships = client.get(f"{BASE}/ships").get_json()["ships"]
    assert [(s["ship"], s["size"], s["special"]) for s in ships] == [
        ("carrier", 5, "recon flight"),
        ("battleship", 4, "heavy shell"),
        ("cruiser", 3, "sonar sweep"),
        ("submarine", 3, "dive"),
        ("destroyer", 2, "depth charges"),
    ]
    tables = client.get(f"{BASE}/tables").get_json()["tables"]
    assert tables["fleet_squares"] == 17 and tables["loot_per_ocean"] == 7
    assert [(x["kind"], x["pieces"], x["shots"]) for x in tables["loot"]] == [
        ("crate", 3, 1),
        ("mine", 2, -1),
        ("radar-buoy", 2, 0),
    ]
    assert (tables["rating"]["k"], tables["rating"]["start"]) == (32, 1000)
    assert tables["specials"]["battleship"]["area"] == [[0, 0], [1, 0], [0, 1], [1, 1]]


def test_no_step_offers_odds(client: FlaskClient) -> None:
    """ruling no-odds."""
    detail = client.get(BASE).get_json()
    assert [s["name"] for s in detail["steps"]] == [
        "layout",
        "loot",
        "salvo",
        "computer",
        "heatmap",
        "rating",
    ]
    assert all(s["odds_path"] is None for s in detail["steps"])
    assert client.post(f"{BASE}/salvo/odds", json={}).status_code == 404


def test_every_ruling_is_served_and_tested_by_name(client: FlaskClient) -> None:
    """Each ruling id appears as 'ruling <id>' in a SALVO test."""
    rulings = {r["id"] for r in client.get(BASE).get_json()["rulings"]}
    assert len(rulings) >= 15
    text = "".join(p.read_text() for p in Path(__file__).parent.glob("test_salvo_grid_*.py"))
    named = set(re.findall(r"ruling ([a-z-]+)", text))
    assert rulings - named == set()


def test_the_depth_charge_roll_names_the_line_it_picked(client: FlaskClient) -> None:
    """Six lines of three run through a lone hit on E5, all fresh: one d6 picks among them,
    and the trail names the line picked by its ends ("D5-F5"), as a player reads a board."""
    body = {"ocean": ocean_b(specials_used=["battleship"]), "view": {"hits": ["E5"]}}
    data = resolve(client, "computer", body, [2, 1, 1, 1])
    assert data["rolls"][0]["notation"] == "1d6"
    entry = check_of(data, "computer depth charges")
    assert entry["compared_with"] == "6 candidates in order"
    assert entry["outcome"] == "D5-F5"
    assert data["result"]["salvo"]["specials"] == [
        {"ship": "destroyer", "square": "D5", "orientation": "horizontal"}
    ]


def test_the_heavy_shell_roll_names_the_block_it_picked(client: FlaskClient) -> None:
    """Four 2x2 blocks hold E5, all fresh: one d4, and the trail names the block by its
    top-left and bottom-right squares."""
    body = {"ocean": ocean_b(specials_used=["destroyer"]), "view": {"hits": ["E5"]}}
    data = resolve(client, "computer", body, [4, 1, 1, 1])
    assert data["rolls"][0]["notation"] == "1d4"
    entry = check_of(data, "computer heavy shell")
    assert entry["compared_with"] == "4 candidates in order"
    assert entry["outcome"] == "E5-F6"
    assert data["result"]["salvo"]["specials"] == [{"ship": "battleship", "square": "E5"}]


def test_the_computer_refuses_its_own_illegal_fleet_naming_ocean_fleet(
    client: FlaskClient,
) -> None:
    """The computer's ocean comes back from the app: an illegal fleet in it is refused as
    the computer's, naming the very square list under ocean.fleet."""
    problem = refused(client, "computer", {"ocean": ocean_b(fleet=diagonal_cruiser()), "view": {}})
    assert problem["type"].endswith("#rule-violation")
    assert problem["detail"] == (
        "the computer's fleet is not a legal layout: the Cruiser lies diagonally (C3, D4, E5): "
        "ships lie horizontally or vertically, never diagonally"
    )
    assert [error["field"] for error in problem["errors"]] == ["ocean.fleet[2].squares"]


def test_a_rating_gain_for_captain_b_stops_at_the_highest(client: FlaskClient) -> None:
    """ruling rating, from b's side: b winning at 9990 would gain 16, past 10000; both
    captains move by the 10 that is left (the cut seen from a's side is tested with a
    winning, in test_salvo_grid_computer.py)."""
    out = resolve(client, "rating", {"a": 9990, "b": 9990, "result": "b-wins"})["result"]
    assert (out["a"]["change"], out["b"]["change"]) == (-10, 10)
    assert (out["a"]["new_rating"], out["b"]["new_rating"]) == (9980, 10000)


def test_a_rating_loss_for_captain_a_stops_at_the_lowest(client: FlaskClient) -> None:
    out = resolve(client, "rating", {"a": 5, "b": 5, "result": "b-wins"})["result"]
    assert (out["a"]["change"], out["b"]["change"]) == (-5, 5)
    assert (out["a"]["new_rating"], out["b"]["new_rating"]) == (0, 10)


def test_the_computer_with_no_ship_afloat_is_refused_naming_ocean(client: FlaskClient) -> None:
    every_square = [sq for ship in FLEET_B for sq in ship["squares"]]
    problem = refused(
        client, "computer", {"ocean": ocean_b(shots_received=every_square), "view": {}}
    )
    assert problem["detail"] == "the computer has no ship afloat: the battle is over"
    assert [error["field"] for error in problem["errors"]] == ["ocean"]


def test_the_computer_with_every_enemy_ship_sunk_is_refused_in_words(client: FlaskClient) -> None:
    sunk = FLEET_A  # every ship of captain a's fleet, shown sunk where it lies
    problem = refused(client, "computer", {"ocean": ocean_b(), "view": {"sunk": sunk}})
    assert problem["detail"] == "every enemy ship is sunk: the battle is over"
    assert [error["field"] for error in problem["errors"]] == ["view.sunk"]


SHORT_SALVO = {
    # the destroyer and battleship afloat, a mine found last salvo: a salvo of 1
    "ocean": ocean_b(
        shots_received=[
            sq
            for ship in FLEET_B
            if ship["ship"] not in ("destroyer", "battleship")
            for sq in ship["squares"]
        ],
        loot_bonus=-1,
    ),
    "view": {"hits": ["A1"]},
}


CHARGES = {"ship": "destroyer", "square": "A1", "orientation": "vertical"}


def test_specials_paid_with_shots_stop_when_the_salvo_is_spent(client: FlaskClient) -> None:
    """ruling special-needs-its-ship-afloat, reading costs-a-shot: a salvo of 1 buys the
    depth charges and nothing more, so no heavy shell and no shot."""
    body = {**SHORT_SALVO, "rules": {"special-needs-its-ship-afloat": "costs-a-shot"}}
    data = resolve(client, "computer", body, [2])
    assert data["result"]["salvo"] == {"shots": [], "specials": [CHARGES]}
    assert data["result"]["salvo_size"] == 1


def test_specials_in_addition_are_not_limited_by_the_salvo_size(client: FlaskClient) -> None:
    """ruling special-needs-its-ship-afloat, reading in-addition (the default): the same
    salvo of 1 carries both specials and its one shot."""
    data = resolve(client, "computer", SHORT_SALVO, [2, 1])
    assert data["result"]["salvo"] == {
        "shots": ["C1"],
        "specials": [CHARGES, {"ship": "battleship", "square": "A1"}],
    }


def test_a_tier_with_exactly_the_shots_left_is_fired_whole_without_a_die(
    client: FlaskClient,
) -> None:
    """ruling computer-captain: a tier no bigger than the shots left is taken whole, in
    reading order, with no die; here the four squares next to E5 and a salvo of 4."""
    body = {
        "ocean": ocean_b(shots_received=["A10", "B10"], specials_used=["battleship"]),
        "view": {"hits": ["E5"]},
        "dice": {"seed": "cpu", "nonce": 1},
    }
    data = resolve(client, "computer", body)
    assert data["result"]["salvo_size"] == 4
    assert data["rolls"] == []
    assert data["result"]["salvo"] == {"shots": ["E4", "D5", "F5", "E6"], "specials": []}
