"""SALVO's rule options: each ruling with readings played both ways.

Supplied dice wherever the step rolls: a round rolls only for a radar buoy, so the rounds
here also fire on one (captain b's buoy on B4, captain a's on E9) and supply its die. Where
a reading leaves the step no die to roll (the computer with no shot left), the request is
seeded and the answer's empty ``rolls`` shows nothing was left to chance.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.rulesets.salvo_grid import RULESET
from tests.receipts_helpers import verify
from tests.salvo_grid_helpers import (
    BASE,
    FLEET_A,
    FLEET_B,
    ocean_a,
    ocean_b,
    post,
    resolve,
    results,
    salvo_body,
)
from tests.test_salvo_grid_game import play

DEFAULTS = {
    "special-needs-its-ship-afloat": "in-addition",
    "dive-timing": "next-round",
    "counts-after-landing": "after-landing",
    "radar-buoy": "any-ship",
    "fewer-shots": "no-floor",
    "computer-captain": "as-listed",
}
OTHERS = {
    "special-needs-its-ship-afloat": "costs-a-shot",
    "dive-timing": "same-round",
    "counts-after-landing": "before-landing",
    "radar-buoy": "submarine",
    "fewer-shots": "floor-of-one",
    "computer-captain": "contacts-first",
}
NO_FLOOR = {**OTHERS, "fewer-shots": "no-floor"}  # the other readings, a mine's take unfloored
# Captain a's last ship afloat is its destroyer (I9, J9).
LAST_SHIP_A = [sq for s in FLEET_A[:4] for sq in s["squares"]]
# Captain b's last ship afloat is its destroyer (A10, B10).
LAST_SHIP_B = [sq for s in FLEET_B[:4] for sq in s["squares"]]


def under(body: dict[str, Any], rules: dict[str, str] | None) -> dict[str, Any]:
    return body if rules is None else {**body, "rules": rules}


def salvo(
    client: FlaskClient, body: dict[str, Any], rules: dict[str, str] | None, values: list[int]
) -> dict[str, Any]:
    answer = resolve(client, "salvo", under(body, rules), values)
    assert answer["rules"] == {**DEFAULTS, **(rules or {})}
    result: dict[str, Any] = answer["result"]
    return result


def test_the_rulings_with_readings_are_served_with_their_defaults(client: FlaskClient) -> None:
    served = {r["id"]: r for r in client.get(BASE).get_json()["rulings"]}
    chosen = {rid: r["default_reading"] for rid, r in served.items() if r["readings"]}
    assert chosen == DEFAULTS
    for ruling, other in OTHERS.items():
        assert {r["id"] for r in served[ruling]["readings"]} == {DEFAULTS[ruling], other}
    assert RULESET.readings_in_force() == DEFAULTS


def test_an_unknown_reading_is_refused_naming_the_valid_ones(client: FlaskClient) -> None:
    body = under(salvo_body(["J1"]), {"dive-timing": "never"})
    problem = post(client, "salvo", body)
    assert problem.status_code == 422
    assert "next-round" in str(problem.get_json()) and "same-round" in str(problem.get_json())
    problem = post(client, "salvo", under(salvo_body(["J1"]), {"straddle-21-plus": "empty"}))
    assert problem.status_code == 422
    assert "dive-timing" in str(problem.get_json())


# --- special-needs-its-ship-afloat ----------------------------------------------------------

COSTS = {"special-needs-its-ship-afloat": "costs-a-shot"}


def test_a_special_takes_one_of_the_salvos_shots_when_read_so(client: FlaskClient) -> None:
    """ruling special-needs-its-ship-afloat: five shots (B4 a radar buoy) and a sonar sweep."""
    five = ["B4", "A7", "B7", "C7", "D7"]
    sonar = [{"ship": "cruiser", "row": 8}]
    default = salvo(client, salvo_body(five, a_specials=sonar), None, [1])
    assert len(default["a"]["told"]["fire"]) == 5
    assert default["a"]["told"]["specials"][0]["count"] == 4
    problem = post(client, "salvo", under(salvo_body(five, a_specials=sonar), COSTS))
    assert problem.status_code == 422
    assert problem.get_json()["detail"] == (
        "captain a aims 5 shots but has a salvo of 5 (5 ships afloat, less 1 for the special used)"
    )
    four = salvo(client, salvo_body(five[:4], a_specials=sonar), COSTS, [1])
    assert four["a"]["told"]["specials"][0]["count"] == 4
    assert four["a"]["salvo_size"] == 5  # the next salvo is whole again


def test_no_shot_left_to_pay_for_a_special(client: FlaskClient) -> None:
    """rulings special-needs-its-ship-afloat and fewer-shots read the other way: a's last
    ship, a mine found last salvo, a salvo of 0 that cannot pay for the depth charges."""
    charges = [{"ship": "destroyer", "square": "A1", "orientation": "horizontal"}]
    body = salvo_body(a_specials=charges, a=ocean_a(shots_received=LAST_SHIP_A, loot_bonus=-1))
    assert post(client, "salvo", under(body, {"fewer-shots": "no-floor"})).status_code == 200
    problem = post(client, "salvo", under(body, NO_FLOOR))
    assert problem.status_code == 422
    assert problem.get_json()["detail"] == (
        "captain a uses 1 special but has a salvo of 0 (1 ship afloat, -1 from loot): each "
        "special takes one of the salvo's shots"
    )


def test_the_computer_pays_for_its_specials_with_shots_when_read_so(
    client: FlaskClient,
) -> None:
    """ruling special-needs-its-ship-afloat: charges and shell on a ship wounded on A1."""
    body = {"ocean": ocean_b(), "view": {"hits": ["A1"], "misses": ["A2"]}}
    default = resolve(client, "computer", body, [1, 1, 1, 1, 1])["result"]
    costs = resolve(client, "computer", under(body, COSTS), [1, 1, 1])["result"]
    assert (
        costs["salvo"]["specials"]
        == default["salvo"]["specials"]
        == [
            {"ship": "destroyer", "square": "A1", "orientation": "horizontal"},
            {"ship": "battleship", "square": "A1"},
        ]
    )
    assert default["salvo"]["shots"] == ["D1", "E1", "F1", "G1", "H1"]
    assert costs["salvo"]["shots"] == ["D1", "E1", "F1"]
    assert costs["salvo_size"] == default["salvo_size"] == 5


def test_the_computers_last_shot_goes_on_its_depth_charges_when_read_so(
    client: FlaskClient,
) -> None:
    """ruling special-needs-its-ship-afloat: a salvo of 1 (its destroyer alone afloat) buys
    the charges and no shot. Two lines of 3 through A1 tie (die 1: the horizontal one)."""
    body = {"ocean": ocean_b(shots_received=LAST_SHIP_B), "view": {"hits": ["A1"]}}
    charges = [{"ship": "destroyer", "square": "A1", "orientation": "horizontal"}]
    default = resolve(client, "computer", body, [1])
    assert default["result"]["salvo"] == {"shots": ["A2"], "specials": charges}
    costs = resolve(client, "computer", under(body, COSTS), [1])
    assert costs["result"]["salvo"] == {"shots": [], "specials": charges}
    assert [r["label"] for r in costs["rolls"]] == ["computer depth charges"]


# --- dive-timing ----------------------------------------------------------------------------


def test_dive_timing_both_ways(client: FlaskClient) -> None:
    """ruling dive-timing: b dives while a's shot lands on its submarine (G2)."""
    body = salvo_body(["G2", "B4"], b_specials=[{"ship": "submarine"}])
    # next-round (default): the shot hits, and the dive shelters the sub next round.
    default = salvo(client, body, None, [1])
    assert results(default["a"]["told"]) == {"G2": "hit", "B4": "miss"}
    assert default["b"]["ocean"]["shots_received"] == ["G2", "B4"]
    assert default["b"]["ocean"]["diving"] is True
    # same-round: the very salvo that lands with the dive passes over the sub, and the dive
    # is spent once the round has landed.
    same = salvo(client, body, {"dive-timing": "same-round"}, [1])
    assert results(same["a"]["told"]) == {"G2": "contact", "B4": "miss"}
    assert same["b"]["ocean"]["shots_received"] == ["B4"]
    assert same["b"]["ocean"]["contacts"] == ["G2", "J1"]  # J1: the radar buoy's contact
    assert same["b"]["ocean"]["diving"] is False
    assert same["b"]["ocean"]["specials_used"] == ["submarine"]
    assert [(e["square"], e["result"]) for e in same["b"]["own_ocean"]["fire"]] == [
        ("G2", "contact"),
        ("B4", "miss"),
    ]
    assert same["a"]["told"]["specials"] == []  # the dive is still hidden

    # The next round: a fires at H2 and I2. Only the default's dive is still in force.
    for result, expected in ((default, "contact"), (same, "hit")):
        nxt = resolve(
            client,
            "salvo",
            under(
                salvo_body(["H2", "I2"], a=result["a"]["ocean"], b=result["b"]["ocean"]),
                {"dive-timing": "same-round"} if result is same else None,
            ),
        )["result"]
        assert set(results(nxt["a"]["told"]).values()) == {expected}


def test_depth_charges_still_hit_a_submarine_diving_in_the_same_round(
    client: FlaskClient,
) -> None:
    """ruling dive-timing, reading same-round: only depth charges hit the diving sub."""
    body = salvo_body(
        ["B4"],
        a_specials=[
            {"ship": "destroyer", "square": "G2", "orientation": "horizontal"},
            {"ship": "battleship", "square": "G1"},
        ],
        b_specials=[{"ship": "submarine"}],
    )
    same = salvo(client, body, {"dive-timing": "same-round"}, [1])
    told = results(same["a"]["told"])
    assert [told[sq] for sq in ("G2", "H2", "I2")] == ["hit", "hit", "sunk"]
    assert [told[sq] for sq in ("G1", "H1")] == ["miss", "miss"]
    assert same["b"]["afloat"] == ["carrier", "battleship", "cruiser", "destroyer"]


# --- counts-after-landing -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "count"), [(None, 3), ({"counts-after-landing": "before-landing"}, 4)]
)
def test_sonar_counts_after_or_before_the_round_lands(
    client: FlaskClient, rules: dict[str, str] | None, count: int
) -> None:
    """ruling counts-after-landing: row 2 holds J2, G2, H2 and I2; a's shot hits G2."""
    body = salvo_body(["G2", "B4"], a_specials=[{"ship": "cruiser", "row": 2}])
    result = salvo(client, body, rules, [1])
    assert results(result["a"]["told"])["G2"] == "hit"
    assert result["a"]["told"]["specials"][0]["count"] == count
    assert result["a"]["told"]["radar"] == [{"buoy": "B4", "contact": "J1"}]


# --- radar-buoy -----------------------------------------------------------------------------

SUBMARINE = {"radar-buoy": "submarine"}


def test_a_radar_buoy_finds_any_ship_or_the_submarine(client: FlaskClient) -> None:
    """ruling radar-buoy: a's shot finds b's buoy on B4."""
    default = resolve(client, "salvo", salvo_body(["B4"]), [17])
    assert [r["notation"] for r in default["rolls"]] == ["1d17"]
    assert default["result"]["a"]["told"]["radar"] == [{"buoy": "B4", "contact": "B10"}]
    sub = resolve(client, "salvo", under(salvo_body(["B4"]), SUBMARINE), [2])
    assert [r["notation"] for r in sub["rolls"]] == ["1d3"]
    assert sub["result"]["a"]["told"]["radar"] == [{"buoy": "B4", "contact": "H2"}]
    assert sub["result"]["b"]["ocean"]["contacts"] == ["H2"]


def test_a_radar_buoy_finds_nothing_once_the_submarine_is_sunk(client: FlaskClient) -> None:
    """ruling radar-buoy, reading submarine: no candidate, so no die (seeded, ``rolls``
    empty); the default still finds a ship, with a supplied die."""
    b = ocean_b(shots_received=["G2", "H2", "I2"])
    default = resolve(client, "salvo", salvo_body(["B4"], b=b), [1])
    assert default["result"]["a"]["told"]["radar"] == [{"buoy": "B4", "contact": "J1"}]
    pinned = {**salvo_body(["B4"], b=b), "rules": SUBMARINE}
    none = resolve(client, "salvo", pinned)
    assert none["rolls"] == []
    assert none["result"]["a"]["told"]["radar"] == [{"buoy": "B4", "contact": None}]


# --- fewer-shots ----------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "size"), [(None, 0), ({"fewer-shots": "floor-of-one"}, 1)])
def test_plus_or_minus_loot_a_mine_may_take_a_captains_last_shot(
    client: FlaskClient, rules: dict[str, str] | None, size: int
) -> None:
    """ruling fewer-shots: a's last ship finds b's mine on H9 (-1); b finds a's buoy E9."""
    body = salvo_body(["H9"], ["E9"], a=ocean_a(shots_received=LAST_SHIP_A))
    result = salvo(client, body, rules, [1])
    assert result["a"]["told"]["loot_bonus"] == -1
    assert result["a"]["salvo_size"] == size
    assert result["b"]["told"]["radar"] == [{"buoy": "E9", "contact": "I9"}]

    after = salvo_body(["H8"], a=result["a"]["ocean"], b=result["b"]["ocean"])
    response = post(client, "salvo", under(after, rules))
    if size:
        assert response.status_code == 200, response.get_json()
    else:
        assert response.status_code == 422
        assert "has a salvo of 0 (1 ship afloat, -1 from loot)" in response.get_json()["detail"]
        # The specials still fire in a salvo of no shots.
        empty = {**after, "a": {**after["a"], "salvo": {"shots": [], "specials": []}}}
        assert post(client, "salvo", under(empty, rules)).status_code == 200


def test_the_computer_with_no_shot_left_aims_none(client: FlaskClient) -> None:
    """ruling fewer-shots: the computer's last ship and a mine found last salvo.

    Under floor-of-one it keeps one shot, rolled for with a supplied die; by default (no
    floor: 'plus or minus loot') it has no shot and rolls nothing, so the request is seeded
    and ``rolls`` shows no die was used.
    """
    body = {"ocean": ocean_b(shots_received=LAST_SHIP_B, loot_bonus=-1), "view": {}}
    floored = resolve(client, "computer", {**body, "rules": OTHERS}, [3])
    assert floored["result"]["salvo"]["shots"] == ["C1"]
    assert floored["result"]["salvo_size"] == 1
    pinned = {**body, "dice": {"seed": "no-floor", "nonce": 1}}
    none = resolve(client, "computer", pinned)
    assert none["rolls"] == []
    assert none["result"]["salvo"] == {"shots": [], "specials": []}
    assert none["result"]["salvo_size"] == 0


# --- computer-captain -----------------------------------------------------------------------


def aim(
    client: FlaskClient, view: dict[str, Any], values: list[int], rules: dict[str, str] | None
) -> list[tuple[str, str]]:
    body = {"ocean": ocean_b(specials_used=["destroyer", "battleship"]), "view": view}
    answer = resolve(client, "computer", under(body, rules), values)
    return [(a["square"], a["reason"]) for a in answer["result"]["aims"]]


def test_the_computer_fires_at_contacts_first_or_as_the_text_lists(client: FlaskClient) -> None:
    """ruling computer-captain: a contact on H8, a hit on E5 (E4 a miss)."""
    view = {"hits": ["E5"], "misses": ["E4"], "contacts": ["H8"]}
    assert aim(client, view, [1], {"computer-captain": "contacts-first"}) == [
        ("H8", "contact"),
        ("D5", "next to a hit"),
        ("F5", "next to a hit"),
        ("E6", "next to a hit"),
        ("A1", "at random"),
    ]
    # as-listed, the default: the contact has no tier of its own; it is one of the 95 squares
    # left at random. The first die picks A1, the second H8 by its place among the 94 left.
    random_squares = [
        f"{c}{r}"
        for r in range(1, 11)
        for c in "ABCDEFGHIJ"
        if f"{c}{r}" not in {"E5", "E4", "D5", "F5", "E6"}
    ]
    h8 = random_squares.index("H8") + 1
    assert aim(client, view, [1, h8 - 1], None) == [
        ("D5", "next to a hit"),
        ("F5", "next to a hit"),
        ("E6", "next to a hit"),
        ("A1", "at random"),
        ("H8", "at random"),
    ]


def test_then_fires_at_the_squares_next_to_each_hit_a_contact_among_them(
    client: FlaskClient,
) -> None:
    """ruling computer-captain, reading as-listed (the default, the text's list): a contact
    on E6 is a square next to E5."""
    view = {"hits": ["E5"], "misses": ["E4"], "contacts": ["E6"]}
    first = {"computer-captain": "contacts-first"}
    assert aim(client, view, [1, 1], first)[:2] == [("E6", "contact"), ("D5", "next to a hit")]
    assert aim(client, view, [1, 1], None)[:3] == [
        ("D5", "next to a hit"),
        ("F5", "next to a hit"),
        ("E6", "next to a hit"),
    ]


# --- a whole battle under the other readings, verified ---------------------------------------


def in_pieces(log: list[dict[str, Any]], most_bytes: int = 60_000) -> list[list[dict[str, Any]]]:
    """The log cut into consecutive pieces that each fit one verify request."""
    pieces: list[list[dict[str, Any]]] = [[]]
    for entry in log:
        piece = pieces[-1]
        if piece and (len(json.dumps([*piece, entry])) > most_bytes or len(piece) == 100):
            pieces.append(piece := [])
        piece.append(entry)
    return pieces


def test_a_seeded_battle_under_other_readings_verifies(client: FlaskClient) -> None:
    """Every request of a computer-against-computer battle chooses the other readings; each
    answer signs them under ``rules``, the log verifies, and a changed reading is caught."""
    battle = play(client, "house-rules", OTHERS)
    log = battle.log
    assert all(entry["rules"] == OTHERS for entry in log)
    assert [e["result"] for e in log] != [e["result"] for e in play(client, "house-rules").log]
    # A whole battle is past what one verify request takes (64 KB, 100 entries), so the log
    # goes in consecutive pieces: the first verifies as a game's start; each later one
    # verifies but for starting mid-game, and starts where the piece before it ended.
    pieces = in_pieces(log)
    assert len(pieces) > 1
    ended = None
    for number, piece in enumerate(pieces):
        report = verify(client, piece)
        assert all(e["signature_valid"] and e["dice_valid"] for e in report["entries"]), report
        checks = report["log"]
        assert checks["chain_unbroken"] and checks["nonces_consecutive"] and checks["one_seed"]
        if number == 0:
            assert report["valid"] is True, report
        else:
            assert set(checks["codes"]) == {"cut-head"}, checks
            assert piece[0]["provenance"]["request"]["body"]["prev"] == ended
        ended = checks["ends_with"]["receipt_hash"]
    assert sum(len(piece) for piece in pieces) == len(log)

    altered = copy.deepcopy(log[-1])
    altered["rules"]["dive-timing"] = "next-round"
    assert verify(client, altered)["entries"][0]["signature_valid"] is False

    # Replayed from what each entry signed (its request and its rules), the battle comes out
    # the same: the readings a log names are the readings its answers were resolved under.
    for entry in log[-3:]:
        request = entry["provenance"]["request"]
        again = client.post(request["path"], json=request["body"]).get_json()
        assert again["rules"] == entry["rules"]
        assert again["result"] == entry["result"]


# --- the hard captain follows the readings too ----------------------------------------------


def test_the_hard_captains_salvo_fits_the_readings(client: FlaskClient) -> None:
    """rulings fewer-shots and special-needs-its-ship-afloat at level hard: what it aims is a
    salvo the salvo step takes under the same readings (seeded: its heat map may sample)."""
    seeded = {"seed": "hard", "nonce": 1}
    last = {"ocean": ocean_b(shots_received=LAST_SHIP_B, loot_bonus=-1), "view": {}}
    none = resolve(client, "computer", {**last, "level": "hard", "dice": seeded, "rules": NO_FLOOR})
    assert none["result"]["salvo_size"] == 0
    assert none["result"]["salvo"]["shots"] == []

    wounded = ocean_b(shots_received=["A10"])  # its destroyer hit: the charges go at once
    body = {"ocean": wounded, "view": {}, "level": "hard", "dice": seeded, "rules": COSTS}
    aimed = resolve(client, "computer", body)["result"]
    specials = aimed["salvo"]["specials"]
    assert [s["ship"] for s in specials][:1] == ["destroyer"]
    assert len(aimed["salvo"]["shots"]) == 5 - len(specials)
    assert aimed["salvo_size"] == 5
    round_body = salvo_body(b_shots=aimed["salvo"]["shots"], b_specials=specials, b=wounded)
    assert post(client, "salvo", under(round_body, COSTS)).status_code == 200
