"""SALVO guards: what the computer's special shots and the refusals of an illegal fleet say.

Each test kills mutants that survived a mutation run of the salvo-grid module (see
docs/testing.md): a trail that names the area a special was rolled onto, and a refusal that
says whose fleet is illegal and names the field it came in.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.http_helpers import check_of
from tests.salvo_grid_helpers import FLEET_B, ocean_b, refused, resolve


def diagonal_cruiser() -> list[dict[str, Any]]:
    """Captain b's fleet with its cruiser laid diagonally (C3, D4, E5): not a legal layout."""
    fleet = [dict(ship) for ship in FLEET_B]
    index = next(i for i, ship in enumerate(fleet) if ship["ship"] == "cruiser")
    fleet[index] = {"ship": "cruiser", "squares": ["C3", "D4", "E5"]}
    return fleet


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


def test_loot_refuses_an_illegal_fleet_as_this_fleet(client: FlaskClient) -> None:
    """Hiding loot for an illegal fleet: the refusal says "this fleet" and names the field."""
    problem = refused(client, "loot", {"fleet": diagonal_cruiser()})
    assert problem["detail"] == (
        "this fleet is not a legal layout: the Cruiser lies diagonally (C3, D4, E5): "
        "ships lie horizontally or vertically, never diagonally"
    )
    assert [error["field"] for error in problem["errors"]] == ["fleet[2].squares"]


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
    sunk = [
        {"ship": "carrier", "squares": ["A1", "B1", "C1", "D1", "E1"]},
        {"ship": "battleship", "squares": ["A3", "A4", "A5", "A6"]},
        {"ship": "cruiser", "squares": ["C3", "D3", "E3"]},
        {"ship": "submarine", "squares": ["G5", "G6", "G7"]},
        {"ship": "destroyer", "squares": ["I9", "J9"]},
    ]
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
