"""SALVO deployment: random layouts from the dice, every layout fault named, loot placement."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.engine.dice import SeededDice
from service.engine.resolution import Resolution
from service.rulesets.salvo_grid.fleet import (
    BOARD,
    FreeLines,
    LayoutInput,
    Placement,
    Square,
    faults_one_by_one,
    fleet_faults,
    layout,
    lines_on_board,
    parse,
    placements,
)
from tests.salvo_grid_helpers import (
    FLEET_A,
    diagonal_cruiser,
    ocean_a,
    post,
    refused,
    resolve,
    salvo_body,
)

SIZES = {"carrier": 5, "battleship": 4, "cruiser": 3, "submarine": 3, "destroyer": 2}


def squares(fleet: list[dict[str, Any]]) -> list[str]:
    return [sq for ship in fleet for sq in ship["squares"]]


def fleet_with(**changes: list[str]) -> list[dict[str, Any]]:
    return [
        {"ship": ship["ship"], "squares": changes.get(str(ship["ship"]), list(ship["squares"]))}
        for ship in FLEET_A
    ]


def faults(client: FlaskClient, fleet: list[dict[str, Any]]) -> list[dict[str, Any]]:
    result = resolve(client, "layout", {"fleet": fleet})["result"]
    assert result["legal"] is False and result["fleet"] is None
    found: list[dict[str, Any]] = result["faults"]
    return found


# --- a random layout --------------------------------------------------------------------------


def test_a_random_layout_is_five_ships_on_17_squares(client: FlaskClient) -> None:
    result = resolve(client, "layout", {"dice": {"seed": "deploy", "nonce": 3}})["result"]
    assert result["legal"] is True and result["faults"] == []
    assert {s["ship"]: len(s["squares"]) for s in result["fleet"]} == SIZES
    assert len(set(squares(result["fleet"]))) == 17
    check = resolve(client, "layout", {"fleet": result["fleet"]})["result"]
    assert check == {"legal": True, "faults": [], "fleet": result["fleet"]}


def test_the_same_seed_and_nonce_give_the_same_layout(client: FlaskClient) -> None:
    body = {"dice": {"seed": "replay", "nonce": 1}}
    first = resolve(client, "layout", body)
    assert resolve(client, "layout", body)["result"] == first["result"]
    others = {
        str(resolve(client, "layout", {"dice": {"seed": "replay", "nonce": n}})["result"])
        for n in range(2, 6)
    }
    assert str(first["result"]) not in others


def test_layout_dice_one_die_per_ship_with_as_many_sides_as_places(client: FlaskClient) -> None:
    """ruling random-placement: a carrier has 60 horizontal and 60 vertical places."""
    data = resolve(client, "layout", {}, [1, 1, 1, 1, 1])
    assert [r["notation"] for r in data["rolls"]][0] == "1d120"
    assert [r["label"] for r in data["rolls"]] == [
        "place the Carrier",
        "place the Battleship",
        "place the Cruiser",
        "place the Submarine",
        "place the Destroyer",
    ]
    # Face 1 is always the first horizontal place in reading order that is still free.
    assert data["result"]["fleet"] == [
        {"ship": "carrier", "squares": ["A1", "B1", "C1", "D1", "E1"]},
        {"ship": "battleship", "squares": ["F1", "G1", "H1", "I1"]},
        {"ship": "cruiser", "squares": ["A2", "B2", "C2"]},
        {"ship": "submarine", "squares": ["D2", "E2", "F2"]},
        {"ship": "destroyer", "squares": ["G2", "H2"]},
    ]
    last = resolve(client, "layout", {}, [120, 1, 1, 1, 1])["result"]["fleet"][0]
    assert last == {"ship": "carrier", "squares": ["J6", "J7", "J8", "J9", "J10"]}


def test_a_supplied_die_off_the_die_is_refused(client: FlaskClient) -> None:
    problem = refused(client, "layout", {"dice": {"values": [121, 1, 1, 1, 1]}})
    assert problem["type"].endswith("#dice")
    assert "d120 for place the Carrier" in problem["detail"]


# --- every fault, named ---------------------------------------------------------------------


def test_ships_may_touch(client: FlaskClient) -> None:
    touching = fleet_with(cruiser=["B3", "C3", "D3"], destroyer=["B2", "C2"])
    assert resolve(client, "layout", {"fleet": touching})["result"]["legal"] is True


def test_off_the_board_is_named(client: FlaskClient) -> None:
    found = faults(
        client, fleet_with(destroyer=["J9", "K9"], carrier=["A7", "A8", "A9", "A10", "A11"])
    )
    off = [f for f in found if f["fault"] == "off-board"]
    assert {(f["ship"], tuple(f["squares"]), f["field"]) for f in off} == {
        ("carrier", ("A11",), "fleet[0].squares"),
        ("destroyer", ("K9",), "fleet[4].squares"),
    }
    assert "off the board" in off[0]["detail"]


def test_a_diagonal_ship_is_named(client: FlaskClient) -> None:
    found = faults(client, fleet_with(cruiser=["C3", "D4", "E5"]))
    assert [(f["fault"], f["ship"], f["field"]) for f in found] == [
        ("diagonal", "cruiser", "fleet[2].squares")
    ]
    assert "never diagonally" in found[0]["detail"]


def test_a_bent_ship_and_a_gapped_ship_are_named(client: FlaskClient) -> None:
    bent = faults(client, fleet_with(cruiser=["C3", "D3", "D4"]))
    assert [f["fault"] for f in bent] == ["not-in-line"]
    gapped = faults(client, fleet_with(cruiser=["C3", "D3", "F3"]))
    assert [f["fault"] for f in gapped] == ["gap"]


def test_overlapping_ships_are_named(client: FlaskClient) -> None:
    found = faults(client, fleet_with(cruiser=["A2", "A3", "A4"]))
    overlaps = [f for f in found if f["fault"] == "overlap"]
    assert [tuple(f["squares"]) for f in overlaps] == [("A3",), ("A4",)]
    assert "the Cruiser and the Battleship both lie on A3" in overlaps[0]["detail"]


def test_a_ship_of_the_wrong_size_is_named(client: FlaskClient) -> None:
    found = faults(client, fleet_with(battleship=["A3", "A4", "A5"]))
    assert [(f["fault"], f["ship"]) for f in found] == [("wrong-size", "battleship")]
    assert "covers 3 squares; it is 4 long" in found[0]["detail"]


def test_missing_extra_and_repeated_are_named(client: FlaskClient) -> None:
    fleet = [*FLEET_A[:4], {"ship": "cruiser", "squares": ["H1", "H2", "H2"]}]
    found = faults(client, fleet)
    kinds = Counter(f["fault"] for f in found)
    assert kinds["missing-ship"] == 1 and kinds["extra-ship"] == 1
    assert kinds["repeated-square"] == 1 and kinds["wrong-size"] == 1
    missing = next(f for f in found if f["fault"] == "missing-ship")
    assert missing["ship"] == "destroyer" and missing["field"] == "fleet"
    extra = next(f for f in found if f["fault"] == "extra-ship")
    assert extra["field"] == "fleet[4].ship"


def test_every_fault_at_once(client: FlaskClient) -> None:
    """ruling layout-check: a check answers 200 with every fault, not only the first."""
    fleet = fleet_with(
        carrier=["F1", "G2", "H3", "I4", "J5"],
        cruiser=["A5", "A6", "A7"],
        submarine=["K1", "K2", "K3"],
        destroyer=["I9", "I11"],
    )
    kinds = {f["fault"] for f in faults(client, fleet)}
    assert kinds == {"diagonal", "overlap", "off-board", "gap"}


@pytest.mark.parametrize("square", ["C", "5C", "c5", "C05", "AA1", "C100"])
def test_a_square_that_is_not_a_square_is_a_schema_error(client: FlaskClient, square: str) -> None:
    response = post(client, "layout", {"fleet": fleet_with(destroyer=["I9", square])})
    assert response.status_code == 422
    assert response.get_json()["type"].endswith("#validation")


# --- loot -----------------------------------------------------------------------------------


def test_seven_pieces_of_loot_on_open_water(client: FlaskClient) -> None:
    for nonce in range(5):
        loot = resolve(client, "loot", {"fleet": FLEET_A, "dice": {"seed": "loot", "nonce": nonce}})
        pieces = loot["result"]["loot"]
        assert Counter(p["kind"] for p in pieces) == {"crate": 3, "mine": 2, "radar-buoy": 2}
        assert len({p["square"] for p in pieces}) == 7
        assert not {p["square"] for p in pieces} & set(squares(FLEET_A))


def test_loot_dice_place_crates_then_mines_then_buoys(client: FlaskClient) -> None:
    """ruling random-placement: each piece among the open squares left, in reading order."""
    data = resolve(client, "loot", {"fleet": FLEET_A}, [1] * 7)
    assert [r["notation"] for r in data["rolls"]] == [f"1d{n}" for n in range(83, 76, -1)]
    assert data["result"]["loot"] == [
        {"square": "F1", "kind": "crate"},
        {"square": "G1", "kind": "crate"},
        {"square": "H1", "kind": "crate"},
        {"square": "I1", "kind": "mine"},
        {"square": "J1", "kind": "mine"},
        {"square": "A2", "kind": "radar-buoy"},
        {"square": "B2", "kind": "radar-buoy"},
    ]


def test_loot_needs_a_legal_fleet(client: FlaskClient) -> None:
    problem = refused(client, "loot", {"fleet": fleet_with(cruiser=["C3", "D4", "E5"])})
    assert "not a legal layout" in problem["detail"] and "diagonally" in problem["detail"]
    assert problem["errors"][0]["field"] == "fleet[2].squares"


def test_loot_refuses_an_illegal_fleet_as_this_fleet(client: FlaskClient) -> None:
    """Hiding loot for an illegal fleet: the refusal says "this fleet" and names the field."""
    problem = refused(client, "loot", {"fleet": diagonal_cruiser()})
    assert problem["detail"] == (
        "this fleet is not a legal layout: the Cruiser lies diagonally (C3, D4, E5): "
        "ships lie horizontally or vertically, never diagonally"
    )
    assert [error["field"] for error in problem["errors"]] == ["fleet[2].squares"]


# --- every layout fault, whole: its kind, words, field, ship and squares ---------------


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


# --- the quick ways of the layout and of the fleet check, held to the plain ones ---------------


def test_the_free_lines_are_the_placements_in_order() -> None:
    """A layout's die picks from the lines clear of the ships placed so far: the quick count
    and the n-th line are those of the plain list, for any squares taken (off the board
    too), none to all."""
    rnd = random.Random(7)
    takens: list[set[Square]] = [set(), set(BOARD), {(-1, 0), (10, 3), (4, 11)}]
    takens += [set(rnd.sample(BOARD, rnd.randrange(0, 60))) for _ in range(60)]
    for taken in takens:
        for ship in SIZES:
            plain = placements(ship, taken)
            free = FreeLines(ship, taken)
            assert len(free) == len(plain)
            assert [free[i] for i in range(len(free))] == plain
            for beyond in (-1, len(plain)):
                with pytest.raises(IndexError):
                    free[beyond]


def _fleets() -> list[tuple[Placement, ...]]:
    """Legal layouts from the dice, and each of them spoilt in the ways a fleet can be."""
    found = []
    for nonce in range(25):
        result = layout(LayoutInput(), Resolution(SeededDice("fleets", nonce)))["fleet"] or []
        legal = tuple(Placement(p["ship"], tuple(map(parse, p["squares"]))) for p in result)
        first, second, last = legal[0], legal[1], legal[-1]
        others = {square for placement in legal[:-1] for square in placement.squares}
        over = next(sq for sq in lines_on_board(len(last.squares)) if others & set(sq))
        moved = tuple((c + 1, r) for c, r in first.squares)
        found += [
            legal,
            tuple(reversed(legal)),  # in another order: still legal
            tuple(Placement(p.ship, p.squares[::-1]) for p in legal),
            legal[1:],  # a ship missing
            legal + (first,),  # one twice
            (Placement(first.ship, moved),) + legal[1:],  # moved: off the board or over another
            (Placement(first.ship, second.squares[:1] + first.squares[1:]),) + legal[1:],
            legal[:-1] + (Placement(last.ship, over),),  # on a line, over another ship
            # two cruisers and no submarine: the same sizes, on their own lines
            tuple(
                Placement("cruiser" if p.ship == "submarine" else p.ship, p.squares) for p in legal
            ),
            (Placement(first.ship, first.squares[:-1]),) + legal[1:],  # too short
            (Placement(first.ship, first.squares[:1] * 5),) + legal[1:],  # one square, five times
            (Placement(second.ship, first.squares[:4]), Placement(first.ship, second.squares))
            + legal[2:],  # two ships' places swapped: the wrong sizes
            (Placement(first.ship, tuple((c + i, r + i) for i, (c, r) in enumerate(moved))),)
            + legal[1:],  # diagonal, or bent
        ]
    return found


def test_a_fleet_passes_the_quick_check_exactly_when_no_check_finds_a_fault() -> None:
    fleets = _fleets()
    answers = [
        (fleet_faults(fleet, "fleet"), faults_one_by_one(fleet, "fleet")) for fleet in fleets
    ]
    assert all(quick == plain for quick, plain in answers)
    legal = sum(1 for quick, _ in answers if not quick)
    assert 0 < legal < len(fleets)  # both kinds were checked
