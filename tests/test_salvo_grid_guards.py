"""SALVO guards: what the computer's special shots and the refusals of an illegal fleet say.

Each test kills mutants that survived a mutation run of the salvo-grid module (see
docs/testing.md): a trail that names the area a special was rolled onto, and a refusal that
says whose fleet is illegal and names the field it came in.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.rulesets.salvo_grid.api import SalvoGridSalvoSchema
from service.rulesets.salvo_grid.salvo import Salvo, Special
from tests.http_helpers import check_of
from tests.salvo_grid_helpers import (
    ALL_B,
    FLEET_A,
    FLEET_B,
    ocean_a,
    ocean_b,
    refused,
    resolve,
    salvo_body,
)

LOOT = ocean_b()["loot"]


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


# --- salvo.py and fleet.py: every refusal of a round, word for word -------------------------
# A mutation run of salvo.py and fleet.py found the words and the field of these refusals
# unguarded where the salvo tests check only a part of the detail (docs/testing.md).

COSTS = {"special-needs-its-ship-afloat": "costs-a-shot"}
SHELL = {"ship": "battleship", "square": "C3"}
CHARGES_A2 = {"ship": "destroyer", "square": "A2", "orientation": "vertical"}
# Captain a's ships in fleet order are the carrier, battleship, cruiser, submarine, destroyer.
A_SQUARES = [sq for ship in FLEET_A for sq in ship["squares"]]
LAST_SHIP_A = [sq for ship in FLEET_A[:4] for sq in ship["squares"]]  # the destroyer afloat
TWO_SHIPS_A = [sq for ship in FLEET_A[:3] for sq in ship["squares"]]  # submarine, destroyer
SALVO_REFUSALS: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "too many shots",
        salvo_body(["A2", "A3", "A4", "A5", "A6", "A7"]),
        "a.salvo.shots",
        "captain a aims 6 shots but has a salvo of 5 (5 ships afloat)",
    ),
    (
        "too many shots, one ship afloat",
        salvo_body(["B2", "B3"], a=ocean_a(shots_received=LAST_SHIP_A)),
        "a.salvo.shots",
        "captain a aims 2 shots but has a salvo of 1 (1 ship afloat)",
    ),
    (
        "too many shots, loot",
        salvo_body(["B2", "B3", "B4", "B5"], a=ocean_a(shots_received=TWO_SHIPS_A, loot_bonus=1)),
        "a.salvo.shots",
        "captain a aims 4 shots but has a salvo of 3 (2 ships afloat, +1 from loot)",
    ),
    (
        "too many shots, specials paid with shots",
        {
            **salvo_body(
                ["A2", "A3", "A4", "A5"],
                a_specials=[{"ship": "submarine"}, {"ship": "cruiser", "row": 3}],
            ),
            "rules": COSTS,
        },
        "a.salvo.shots",
        "captain a aims 4 shots but has a salvo of 5 (5 ships afloat, less 2 for the specials "
        "used)",
    ),
    (
        "too many shots, a special paid with a shot",
        {
            **salvo_body(["B2"], a_specials=[CHARGES_A2], a=ocean_a(shots_received=LAST_SHIP_A)),
            "rules": COSTS,
        },
        "a.salvo.shots",
        "captain a aims 1 shots but has a salvo of 1 (1 ship afloat, less 1 for the special used)",
    ),
    (
        "more specials than shots",
        {
            **salvo_body(
                a_specials=[{"ship": "submarine"}, CHARGES_A2],
                a=ocean_a(shots_received=TWO_SHIPS_A, loot_bonus=-1),
            ),
            "rules": COSTS,
        },
        "a.salvo.specials",
        "captain a uses 2 specials but has a salvo of 1 (2 ships afloat, -1 from loot): each "
        "special takes one of the salvo's shots",
    ),
    (
        "a special and no shot",
        {
            **salvo_body(
                a_specials=[CHARGES_A2], a=ocean_a(shots_received=LAST_SHIP_A, loot_bonus=-1)
            ),
            "rules": {**COSTS, "fewer-shots": "no-floor"},
        },
        "a.salvo.specials",
        "captain a uses 1 special but has a salvo of 0 (1 ship afloat, -1 from loot): each "
        "special takes one of the salvo's shots",
    ),
    (
        "a square twice",
        salvo_body(["A2", "A2"]),
        "a.salvo.shots[1]",
        "captain a aims at A2 twice in this salvo: each shot needs its own square",
    ),
    (
        "a square under a special",
        salvo_body(["C4"], a_specials=[SHELL]),
        "a.salvo.shots[0]",
        "C4 is already under captain a's heavy shell this salvo: each shot needs its own square",
    ),
    (
        "a square fired at before",
        salvo_body(["A2", "E5"], b=ocean_b(shots_received=["E5"])),
        "a.salvo.shots[1]",
        "captain a fired at E5 in an earlier round and it is not a contact: each shot needs a "
        "square not fired at before",
    ),
    (
        "a special used before",
        salvo_body(a_specials=[SHELL], a=ocean_a(specials_used=["battleship"])),
        "a.salvo.specials[0].ship",
        "captain a already used the Battleship's heavy shell earlier in the battle: each "
        "special is used once a game",
    ),
    (
        "a special twice",
        salvo_body(a_specials=[SHELL, SHELL]),
        "a.salvo.specials[1].ship",
        "captain a uses the Battleship's heavy shell twice in this salvo: each special is used "
        "once a game",
    ),
    (
        "a special of a sunk ship",
        salvo_body(a_specials=[CHARGES_A2], a=ocean_a(shots_received=["I9", "J9"])),
        "a.salvo.specials[0].ship",
        "captain a's Destroyer was sunk before this round, and the Destroyer's depth charges "
        "went down with it",
    ),
    (
        "a special not aimed",
        salvo_body(a_specials=[{"ship": "battleship"}]),
        "a.salvo.specials[0].square",
        "aim the Battleship's heavy shell with square",
    ),
    (
        "a special half aimed",
        salvo_body(a_specials=[{"ship": "destroyer", "square": "I1"}]),
        "a.salvo.specials[0].orientation",
        "aim the Destroyer's depth charges with square and orientation",
    ),
    (
        "a special aimed with what it does not take",
        salvo_body(a_specials=[{"ship": "submarine", "square": "B2"}]),
        "a.salvo.specials[0].square",
        "aim the Submarine's dive with nothing but the ship",
    ),
    (
        "a sweep of a row and a column",
        salvo_body(a_specials=[{"ship": "cruiser", "row": 2, "column": "B"}]),
        "a.salvo.specials[0]",
        "the Cruiser's sonar sweep sweeps one whole line: give either row (1-10) or column "
        "(A-J), nothing else",
    ),
    (
        "a sweep of nothing",
        salvo_body(a_specials=[{"ship": "cruiser"}]),
        "a.salvo.specials[0]",
        "the Cruiser's sonar sweep sweeps one whole line: give either row (1-10) or column "
        "(A-J), nothing else",
    ),
    (
        "a heavy shell off the board",
        salvo_body(a_specials=[{"ship": "battleship", "square": "J10"}]),
        "a.salvo.specials[0].square",
        "the Battleship's heavy shell from J10 would run off the board at K10, J11, K11: the "
        "top-left square of a 2x2 block that lies wholly on the board",
    ),
    (
        "the battle over for b",
        salvo_body(["A2"], b=ocean_b(shots_received=ALL_B)),
        "b.ocean",
        "captain b has no ship afloat: the battle is over",
    ),
    (
        "the battle over for a",
        salvo_body(["A2"], a=ocean_a(shots_received=A_SQUARES)),
        "a.ocean",
        "captain a has no ship afloat: the battle is over",
    ),
    (
        "a contact on open water",
        salvo_body(["A2"], b=ocean_b(contacts=["A1"])),
        "b.ocean.contacts",
        "captain b's contacts include A1, which is open water: a contact is always on a ship",
    ),
    (
        "a contact fired on",
        salvo_body(["A2"], b=ocean_b(contacts=["J1"], shots_received=["J1"])),
        "b.ocean.contacts",
        "captain b's contacts include J1, which is already in shots_received",
    ),
    (
        "a contact twice",
        salvo_body(["A2"], b=ocean_b(contacts=["J1", "J1"])),
        "b.ocean.contacts",
        "captain b's contacts list a square twice",
    ),
    (
        "a square fired on twice",
        salvo_body(["A2"], b=ocean_b(shots_received=["A1", "B1", "A1", "B1"])),
        "b.ocean.shots_received",
        "captain b's shots_received lists A1, B1 more than once: a square is fired on to "
        "effect only once",
    ),
    (
        "a special used twice",
        salvo_body(["A2"], b=ocean_b(specials_used=["carrier", "carrier"])),
        "b.ocean.specials_used",
        "captain b's specials_used list a ship twice",
    ),
    (
        "a dive not used",
        salvo_body(["A2"], b=ocean_b(diving=True)),
        "b.ocean.diving",
        "captain b's submarine is diving but its dive is not in specials_used",
    ),
    (
        "a sunk submarine diving",
        salvo_body(
            ["A2"],
            b=ocean_b(diving=True, specials_used=["submarine"], shots_received=["G2", "H2", "I2"]),
        ),
        "b.ocean.diving",
        "captain b's submarine is diving but it is sunk",
    ),
    (
        "loot of the wrong kinds",
        salvo_body(["A2"], b={"fleet": FLEET_B, "loot": [{**p, "kind": "crate"} for p in LOOT]}),
        "b.ocean.loot",
        "captain b's loot is not legal: 7 crate pieces where an ocean has 3; 0 mine pieces "
        "where an ocean has 2; 0 radar-buoy pieces where an ocean has 2",
    ),
    (
        "loot under a ship, twice on a square",
        salvo_body(
            ["A2"],
            b={
                "fleet": FLEET_B,
                "loot": [{**p, "square": "J1"} if p["kind"] == "mine" else p for p in LOOT],
            },
        ),
        "b.ocean.loot",
        "captain b's loot is not legal: loot on J1, under a ship: loot lies on open water; loot "
        "on J1, under a ship: loot lies on open water; two pieces of loot on J1",
    ),
]


@pytest.mark.parametrize(
    ("body", "field", "detail"),
    [case[1:] for case in SALVO_REFUSALS],
    ids=[case[0] for case in SALVO_REFUSALS],
)
def test_a_refused_round_says_why_word_for_word_and_names_the_field(
    client: FlaskClient, body: dict[str, Any], field: str, detail: str
) -> None:
    """ruling battle-over, the salvo rules and an ocean the rules could produce: each
    refusal's whole detail and the one field it names."""
    problem = refused(client, "salvo", body)
    assert problem["type"].endswith("#rule-violation")
    assert problem["detail"] == detail
    assert problem["errors"] == [{"field": field, "message": detail}]


def test_a_salvo_written_out_reads_back_as_the_same_salvo() -> None:
    """A salvo as an answer writes it (the computer's and the hard captain's) is one an app
    can send back as a request: every kind of special and its aim, written out, is read back
    unchanged (the captains aim no sonar sweep today, so its row and column are checked here
    only)."""
    salvo = Salvo(
        shots=((0, 1), (9, 9)),
        specials=(
            Special("carrier", (4, 4)),
            Special("battleship", (2, 2)),
            Special("cruiser", row=10),
            Special("cruiser", column="J"),
            Special("destroyer", (0, 1), "vertical"),
            Special("submarine"),
        ),
    )
    written = salvo.as_dict()
    assert written == {
        "shots": ["A2", "J10"],
        "specials": [
            {"ship": "carrier", "square": "E5"},
            {"ship": "battleship", "square": "C3"},
            {"ship": "cruiser", "row": 10},
            {"ship": "cruiser", "column": "J"},
            {"ship": "destroyer", "square": "A2", "orientation": "vertical"},
            {"ship": "submarine"},
        ],
    }
    assert SalvoGridSalvoSchema().load(written) == salvo


# --- fleet.py: every layout fault, whole -------------------------------------------------


def fleet_with(**changes: list[str]) -> list[dict[str, Any]]:
    """Captain a's fleet with some ships' squares changed."""
    return [
        {"ship": ship["ship"], "squares": changes.get(str(ship["ship"]), list(ship["squares"]))}
        for ship in FLEET_A
    ]


def fault(kind: str, detail: str, field: str, ship: str, squares: list[str]) -> dict[str, Any]:
    return {"fault": kind, "detail": detail, "field": field, "ship": ship, "squares": squares}


DIAGONAL = "ships lie horizontally or vertically, never diagonally"
LAYOUT_FAULTS: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]] = [
    (
        "off the board, right and below",
        fleet_with(destroyer=["J9", "K9"], carrier=["A7", "A8", "A9", "A10", "A11"]),
        [
            fault(
                "off-board",
                "the Carrier runs off the board at A11: the ocean is columns A to J, rows 1 to 10",
                "fleet[0].squares",
                "carrier",
                ["A11"],
            ),
            fault(
                "off-board",
                "the Destroyer runs off the board at K9: the ocean is columns A to J, rows 1 to 10",
                "fleet[4].squares",
                "destroyer",
                ["K9"],
            ),
        ],
    ),
    (
        "diagonal, given in any order",
        fleet_with(cruiser=["E5", "D4", "C3"]),
        [
            fault(
                "diagonal",
                f"the Cruiser lies diagonally (C3, D4, E5): {DIAGONAL}",
                "fleet[2].squares",
                "cruiser",
                ["C3", "D4", "E5"],
            )
        ],
    ),
    (
        "diagonal, rising",
        fleet_with(cruiser=["C5", "D4", "E3"]),
        [
            fault(
                "diagonal",
                f"the Cruiser lies diagonally (C5, D4, E3): {DIAGONAL}",
                "fleet[2].squares",
                "cruiser",
                ["C5", "D4", "E3"],
            )
        ],
    ),
    (
        "bent",
        fleet_with(cruiser=["C3", "D3", "D4"]),
        [
            fault(
                "not-in-line",
                "the Cruiser's squares C3, D3, D4 are not in one row or column",
                "fleet[2].squares",
                "cruiser",
                ["C3", "D3", "D4"],
            )
        ],
    ),
    (
        "a knight's move apart, evenly",
        fleet_with(cruiser=["B6", "D7", "F8"]),
        [
            fault(
                "not-in-line",
                "the Cruiser's squares B6, D7, F8 are not in one row or column",
                "fleet[2].squares",
                "cruiser",
                ["B6", "D7", "F8"],
            )
        ],
    ),
    (
        "a gap in a row",
        fleet_with(cruiser=["C3", "D3", "F3"]),
        [
            fault(
                "gap",
                "the Cruiser's squares C3, D3, F3 are in one line but not end to end: a ship "
                "has no gaps",
                "fleet[2].squares",
                "cruiser",
                ["C3", "D3", "F3"],
            )
        ],
    ),
    (
        "a gap in a column",
        fleet_with(cruiser=["C3", "C4", "C6"]),
        [
            fault(
                "gap",
                "the Cruiser's squares C3, C4, C6 are in one line but not end to end: a ship "
                "has no gaps",
                "fleet[2].squares",
                "cruiser",
                ["C3", "C4", "C6"],
            )
        ],
    ),
    (
        "overlapping",
        fleet_with(cruiser=["A2", "A3", "A4"]),
        [
            fault(
                "overlap",
                f"the Cruiser and the Battleship both lie on {square}: ships may touch but "
                "never overlap",
                "fleet[2].squares",
                "cruiser",
                [square],
            )
            for square in ("A3", "A4")
        ],
    ),
    (
        "too short",
        fleet_with(battleship=["A3", "A4", "A5"]),
        [
            fault(
                "wrong-size",
                "the Battleship covers 3 squares; it is 4 long",
                "fleet[1].squares",
                "battleship",
                ["A3", "A4", "A5"],
            )
        ],
    ),
    (
        "one square",
        fleet_with(destroyer=["I9"]),
        [
            fault(
                "wrong-size",
                "the Destroyer covers 1 squares; it is 2 long",
                "fleet[4].squares",
                "destroyer",
                ["I9"],
            )
        ],
    ),
    (
        "two squares off the board",
        fleet_with(destroyer=["K9", "L9"]),
        [
            fault(
                "off-board",
                "the Destroyer runs off the board at K9, L9: the ocean is columns A to J, rows 1 "
                "to 10",
                "fleet[4].squares",
                "destroyer",
                ["K9", "L9"],
            )
        ],
    ),
    (
        "two squares named twice",
        fleet_with(battleship=["A3", "A4", "A5", "A6", "A3", "A4"]),
        [
            fault(
                "repeated-square",
                "the Battleship names A3, A4 more than once",
                "fleet[1].squares",
                "battleship",
                ["A3", "A4"],
            )
        ],
    ),
    (
        "missing, extra and repeated",
        [*FLEET_A[:4], {"ship": "cruiser", "squares": ["H1", "H2", "H2"]}],
        [
            {
                "fault": "missing-ship",
                "detail": "the fleet has no Destroyer: it is the Carrier, Battleship, Cruiser, "
                "Submarine and Destroyer, one of each",
                "field": "fleet",
                "ship": "destroyer",
                "squares": [],
            },
            fault(
                "extra-ship",
                "a second Cruiser: the fleet has one of each ship",
                "fleet[4].ship",
                "cruiser",
                ["H1", "H2", "H2"],
            ),
            fault(
                "repeated-square",
                "the Cruiser names H2 more than once",
                "fleet[4].squares",
                "cruiser",
                ["H2"],
            ),
            fault(
                "wrong-size",
                "the Cruiser covers 2 squares; it is 3 long",
                "fleet[4].squares",
                "cruiser",
                ["H1", "H2", "H2"],
            ),
        ],
    ),
]


@pytest.mark.parametrize(
    ("fleet", "expected"),
    [case[1:] for case in LAYOUT_FAULTS],
    ids=[case[0] for case in LAYOUT_FAULTS],
)
def test_each_layout_fault_is_named_whole(
    client: FlaskClient, fleet: list[dict[str, Any]], expected: list[dict[str, Any]]
) -> None:
    """ruling layout-check: each fault's kind, words, field, ship and squares, in order."""
    result = resolve(client, "layout", {"fleet": fleet})["result"]
    assert result == {"legal": False, "faults": expected, "fleet": None}


def test_an_illegal_ocean_names_every_fault_and_the_first_field(client: FlaskClient) -> None:
    """An ocean with two layout faults: the refusal lists both, in order, and names the
    field of the first; the ocean is captain a's."""
    ocean = ocean_a(fleet=fleet_with(cruiser=["C3", "D3", "F3"], destroyer=["J9", "K9"]))
    problem = refused(client, "salvo", salvo_body(["A2"], a=ocean))
    assert problem["detail"] == (
        "captain a's fleet is not a legal layout: the Cruiser's squares C3, D3, F3 are in one "
        "line but not end to end: a ship has no gaps; the Destroyer runs off the board at K9: "
        "the ocean is columns A to J, rows 1 to 10"
    )
    assert [error["field"] for error in problem["errors"]] == ["a.ocean.fleet[2].squares"]


def test_sunk_is_reported_on_the_ships_own_last_square_not_a_later_hit(
    client: FlaskClient,
) -> None:
    """ruling sunk-report: the carrier's last square in the salvo says sunk even when a hit
    on another ship (the submarine at H2) comes after it in the same salvo."""
    body = salvo_body(["J2", "J3", "J4", "J5", "H2"], b=ocean_b(shots_received=["J1"]))
    told = resolve(client, "salvo", body)["result"]["a"]["told"]
    assert [(e["square"], e["result"], e["ship"]) for e in told["fire"]] == [
        ("J2", "hit", None),
        ("J3", "hit", None),
        ("J4", "hit", None),
        ("J5", "sunk", "carrier"),
        ("H2", "hit", None),
    ]


def test_the_radar_buoy_roll_names_the_square_it_picked(client: FlaskClient) -> None:
    """ruling radar-buoy: the trail of the buoy's die names the contact as a player reads
    the board ("G2"), among captain b's 16 ship squares still unknown."""
    data = resolve(client, "salvo", {**salvo_body(["G7", "J1"]), "dice": {"values": [1]}})
    entry = check_of(data, "radar buoy G7 (captain a)")
    assert entry["compared_with"] == "16 candidates in order"
    assert entry["outcome"] == "G2"
