"""SALVO rounds: both salvos land together, sinking, loot, contacts, specials, the end.

Captain a's ocean and captain b's are the two known oceans of tests/salvo_grid_helpers.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.engine.shape import to_json
from service.http.document.derive import shape_schema
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
    results,
    round_,
    salvo_body,
)

SUNK_BUT_DESTROYER_A = [sq for s in FLEET_A[:4] for sq in s["squares"]]
SUNK_BUT_DESTROYER_B = [sq for s in FLEET_B[:4] for sq in s["squares"]]


# --- both salvos land together ----------------------------------------------------------------


def test_a_ship_sunk_this_round_has_already_fired_its_shot_and_special(
    client: FlaskClient,
) -> None:
    """b's destroyer sinks this round, yet its depth charges and all five shots still land."""
    result = round_(
        client,
        ["B10"],
        ["F10", "G10", "H10", "I10", "J10"],
        b_specials=[{"ship": "destroyer", "square": "A3", "orientation": "vertical"}],
        b=ocean_b(shots_received=["A10"]),
    )
    assert results(result["a"]["told"])["B10"] == "sunk"
    b_fire = results(result["b"]["told"])
    assert [b_fire[sq] for sq in ("A3", "A4", "A5")] == ["hit", "hit", "hit"]
    assert len(b_fire) == 8
    assert result["b"]["afloat"] == ["carrier", "battleship", "cruiser", "submarine"]
    assert result["b"]["salvo_size"] == 4
    # From the next round on, the lost ship's shot is gone.
    problem = refused(
        client, "salvo", salvo_body([], ["F9", "G9", "H9", "I9", "J9"], b=result["b"]["ocean"])
    )
    assert "aims 5 shots but has a salvo of 4 (4 ships afloat)" in problem["detail"]


def test_both_salvos_resolve_against_the_oceans_as_they_stood(client: FlaskClient) -> None:
    result = round_(client, ["J1", "A1"], ["A1", "F1"])
    assert results(result["a"]["told"]) == {"J1": "hit", "A1": "miss"}
    assert results(result["b"]["told"]) == {"A1": "hit", "F1": "miss"}
    assert result["a"]["ocean"]["shots_received"] == ["A1", "F1"]
    assert result["b"]["ocean"]["shots_received"] == ["J1", "A1"]
    assert (result["game_over"], result["winner"], result["draw"]) == (False, None, False)


def test_a_hit_never_names_the_ship_until_it_sinks(client: FlaskClient) -> None:
    """ruling told-versus-seen: the firer learns the ship on sinking; the owner always."""
    result = round_(client, ["J1", "E4", "F4"])
    told = result["a"]["told"]["fire"]
    assert [(e["square"], e["result"], e["ship"], e["position"]) for e in told] == [
        ("J1", "hit", None, []),
        ("E4", "hit", None, []),
        ("F4", "miss", None, []),
    ]
    seen = result["b"]["own_ocean"]["fire"]
    assert [(e["square"], e["ship"]) for e in seen] == [
        ("J1", "carrier"),
        ("E4", "cruiser"),
        ("F4", None),
    ]
    assert result["a"]["view"] == {
        "misses": ["F4"],
        "hits": ["J1", "E4"],
        "contacts": [],
        "sunk": [],
    }


def test_sunk_reveals_the_ship_and_its_whole_position(client: FlaskClient) -> None:
    """ruling sunk-report: the last square of the ship in the salvo's order says sunk."""
    result = round_(client, ["J3", "J1", "J5", "J2", "J4"])
    fire = result["a"]["told"]["fire"]
    assert [e["result"] for e in fire] == ["hit", "hit", "hit", "hit", "sunk"]
    assert fire[-1]["ship"] == "carrier"
    assert fire[-1]["position"] == ["J1", "J2", "J3", "J4", "J5"]
    assert result["a"]["told"]["sunk"] == [
        {"ship": "carrier", "squares": ["J1", "J2", "J3", "J4", "J5"]}
    ]
    assert result["b"]["own_ocean"]["sunk"] == result["a"]["told"]["sunk"]
    assert result["a"]["view"]["sunk"] == result["a"]["told"]["sunk"]
    assert result["a"]["view"]["hits"] == []


# --- salvo size and loot --------------------------------------------------------------------


def test_loot_adds_up_two_crates_make_plus_two(client: FlaskClient) -> None:
    result = round_(client, ["A1", "F5"])
    told = result["a"]["told"]
    assert [e["loot"] for e in told["fire"]] == ["crate", "crate"]
    assert told["loot_bonus"] == 2
    assert result["a"]["salvo_size"] == 7
    assert result["a"]["ocean"]["loot_bonus"] == 2
    seen = result["b"]["own_ocean"]["fire"]  # the owner is told what the rival found
    assert [e["loot"] for e in seen] == ["crate", "crate"]


def test_a_crate_and_a_mine_cancel_out(client: FlaskClient) -> None:
    result = round_(client, ["A1", "D1"])
    assert result["a"]["told"]["loot_bonus"] == 0
    assert result["a"]["salvo_size"] == 5


def test_loot_lasts_one_salvo(client: FlaskClient) -> None:
    """ruling loot: found loot counts for the next salvo only."""
    first = round_(client, ["A1", "F5"])
    seven = ["A2", "A3", "A4", "A5", "A6", "A7", "A8"]
    second = resolve(
        client, "salvo", salvo_body(seven, a=first["a"]["ocean"], b=first["b"]["ocean"])
    )["result"]
    assert second["a"]["ocean"]["loot_bonus"] == 0
    assert second["a"]["salvo_size"] == 5
    problem = refused(
        client,
        "salvo",
        salvo_body([*seven, "A9"], a=first["a"]["ocean"], b=first["b"]["ocean"]),
    )
    assert "has a salvo of 7 (5 ships afloat, +2 from loot)" in problem["detail"]


def test_plus_or_minus_loot_sets_no_floor_unless_read_with_one(client: FlaskClient) -> None:
    """ruling fewer-shots: 'one shot for every ship ... plus or minus loot', no floor by
    default; floor-of-one keeps a shot while a ship floats."""
    last_ship = ocean_a(shots_received=SUNK_BUT_DESTROYER_A, loot_bonus=-2)
    floor = {"rules": {"fewer-shots": "floor-of-one"}}
    result = resolve(client, "salvo", {**salvo_body(["H9"], a=last_ship), **floor})["result"]
    assert result["a"]["told"]["loot_bonus"] == -1
    assert result["a"]["salvo_size"] == 1
    problem = refused(client, "salvo", {**salvo_body(["H9", "H8"], a=last_ship), **floor})
    assert "has a salvo of 1 (1 ship afloat, -2 from loot)" in problem["detail"]
    problem = refused(client, "salvo", salvo_body(["H9"], a=last_ship))
    assert "has a salvo of 0 (1 ship afloat, -2 from loot)" in problem["detail"]


def test_a_special_needs_no_shot_of_its_own(client: FlaskClient) -> None:
    """ruling special-needs-its-ship-afloat: a salvo of no shots may still carry specials."""
    result = round_(client, [], a_specials=[{"ship": "cruiser", "row": 8}, {"ship": "submarine"}])
    assert [s["count"] for s in result["a"]["told"]["specials"]] == [4, None]
    assert result["a"]["ocean"]["specials_used"] == ["cruiser", "submarine"]


def test_a_salvo_may_have_fewer_shots_even_none(client: FlaskClient) -> None:
    """ruling fewer-shots."""
    result = round_(client, [], ["A1"])
    assert result["a"]["told"]["fire"] == []
    assert result["a"]["salvo_size"] == 5


# --- the submarine's dive and contacts ---------------------------------------------------------


def test_a_dive_protects_against_the_next_rounds_salvo_and_contacts_are_refired(
    client: FlaskClient,
) -> None:
    """ruling dive-timing; contacts may be fired at again."""
    first = round_(client, ["G2"], b_specials=[{"ship": "submarine"}])
    assert results(first["a"]["told"]) == {"G2": "hit"}  # the same round: not yet
    assert first["a"]["told"]["specials"] == []  # the dive is hidden
    assert first["b"]["told"]["specials"] == [
        {"ship": "submarine", "special": "dive", "squares": [], "count": None}
    ]
    assert first["b"]["ocean"]["diving"] is True
    assert first["b"]["ocean"]["specials_used"] == ["submarine"]

    second = resolve(
        client, "salvo", salvo_body(["H2", "I2"], a=first["a"]["ocean"], b=first["b"]["ocean"])
    )["result"]
    assert results(second["a"]["told"]) == {"H2": "contact", "I2": "contact"}
    assert second["a"]["told"]["sunk"] == []
    assert second["b"]["ocean"]["contacts"] == ["H2", "I2"]
    assert second["b"]["ocean"]["shots_received"] == ["G2"]
    assert second["b"]["ocean"]["diving"] is False
    assert second["a"]["view"]["contacts"] == ["H2", "I2"]
    seen = second["b"]["own_ocean"]["fire"]
    assert [(e["result"], e["ship"]) for e in seen] == [("contact", "submarine")] * 2

    third = resolve(
        client, "salvo", salvo_body(["H2", "I2"], a=second["a"]["ocean"], b=second["b"]["ocean"])
    )["result"]
    assert results(third["a"]["told"]) == {"H2": "hit", "I2": "sunk"}
    assert third["b"]["ocean"]["contacts"] == []
    assert third["b"]["afloat"] == ["carrier", "battleship", "cruiser", "destroyer"]


def test_a_square_fired_before_that_is_not_a_contact_is_refused(client: FlaskClient) -> None:
    problem = refused(client, "salvo", salvo_body(["A2", "E5"], b=ocean_b(shots_received=["E5"])))
    assert problem["errors"] == [
        {
            "field": "a.salvo.shots[1]",
            "message": "captain a fired at E5 in an earlier round and it is not a contact: "
            "each shot needs a square not fired at before",
        }
    ]


def test_depth_charges_hit_a_diving_submarine(client: FlaskClient) -> None:
    diving = ocean_b(specials_used=["submarine"], diving=True)
    result = round_(
        client,
        ["A2"],
        a_specials=[{"ship": "destroyer", "square": "G2", "orientation": "horizontal"}],
        b=diving,
    )
    fire = result["a"]["told"]["fire"]
    assert [(e["square"], e["by"], e["result"]) for e in fire] == [
        ("G2", "depth charges", "hit"),
        ("H2", "depth charges", "hit"),
        ("I2", "depth charges", "sunk"),
        ("A2", "shot", "miss"),
    ]
    assert result["b"]["ocean"]["diving"] is False


def test_a_heavy_shell_on_a_diving_submarine_comes_back_as_contact(client: FlaskClient) -> None:
    """ruling dive-timing: only depth charges hit a diving submarine."""
    diving = ocean_b(specials_used=["submarine"], diving=True)
    result = round_(client, a_specials=[{"ship": "battleship", "square": "G2"}], b=diving)
    assert results(result["a"]["told"]) == {
        "G2": "contact",
        "H2": "contact",
        "G3": "miss",
        "H3": "miss",
    }


def test_a_submarine_sunk_while_diving_stops_diving(client: FlaskClient) -> None:
    result = round_(
        client,
        b_specials=[{"ship": "submarine"}],
        b=ocean_b(shots_received=["G2", "H2"]),
        a_shots=["I2"],
    )
    assert result["b"]["ocean"]["diving"] is False
    assert result["b"]["ocean"]["specials_used"] == ["submarine"]


# --- the specials -----------------------------------------------------------------------------


def test_heavy_shell_and_depth_charge_squares_pick_up_loot(client: FlaskClient) -> None:
    result = round_(
        client,
        a_specials=[
            {"ship": "battleship", "square": "C3"},
            {"ship": "destroyer", "square": "F5", "orientation": "horizontal"},
        ],
    )
    fire = result["a"]["told"]["fire"]
    assert [(e["square"], e["by"], e["loot"]) for e in fire] == [
        ("F5", "depth charges", "crate"),
        ("G5", "depth charges", None),
        ("H5", "depth charges", None),
        ("C3", "heavy shell", "crate"),
        ("D3", "heavy shell", None),
        ("C4", "heavy shell", None),
        ("D4", "heavy shell", None),
    ]
    assert result["a"]["told"]["loot_bonus"] == 2
    assert result["a"]["salvo_size"] == 7


def test_recon_counts_ship_squares_not_yet_hit_after_the_salvo_lands(client: FlaskClient) -> None:
    """ruling counts-after-landing: E5 is hit by the same salvo, so 2 of the cruiser's 3."""
    result = round_(client, ["E5"], a_specials=[{"ship": "carrier", "square": "E5"}])
    (recon,) = result["a"]["told"]["specials"]
    assert recon["special"] == "recon flight" and recon["count"] == 2
    assert recon["squares"] == ["D4", "E4", "F4", "D5", "E5", "F5", "D6", "E6", "F6"]
    assert result["b"]["own_ocean"]["fire"] == [
        {"square": "E5", "by": "shot", "result": "hit", "ship": "cruiser", "loot": None}
    ]  # the owner does not see where the recon flew


def test_recon_on_the_edge_counts_the_part_on_the_board(client: FlaskClient) -> None:
    """ruling specials: a corner centre covers 4 squares."""
    result = round_(client, a_specials=[{"ship": "carrier", "square": "J1"}])
    (recon,) = result["a"]["told"]["specials"]
    assert recon["squares"] == ["I1", "J1", "I2", "J2"]
    assert recon["count"] == 3  # J1, J2 of the carrier and I2 of the submarine


def test_sonar_sweeps_a_row_or_a_column(client: FlaskClient) -> None:
    row = round_(client, a_specials=[{"ship": "cruiser", "row": 2}])["a"]["told"]["specials"]
    assert (row[0]["special"], row[0]["count"]) == ("sonar sweep", 4)  # G2 H2 I2 J2
    contact = ocean_b(contacts=["E4"])  # a contact has not been hit: it counts
    column = round_(client, a_specials=[{"ship": "cruiser", "column": "E"}], b=contact)
    assert column["a"]["told"]["specials"][0]["count"] == 4  # E4 E5 E6 E8


def test_area_squares_fired_before_are_left_alone(client: FlaskClient) -> None:
    """ruling area-overlap."""
    result = round_(
        client,
        a_specials=[{"ship": "battleship", "square": "C3"}],
        b=ocean_b(shots_received=["C4"]),
    )
    assert list(results(result["a"]["told"])) == ["C3", "D3", "D4"]
    special = result["a"]["told"]["specials"][0]
    assert special["squares"] == ["C3", "D3", "C4", "D4"]


def test_charges_and_shell_overlapping_fire_each_square_once_by_the_charges(
    client: FlaskClient,
) -> None:
    """ruling area-overlap: the depth charges go first."""
    result = round_(
        client,
        a_specials=[
            {"ship": "battleship", "square": "F2"},
            {"ship": "destroyer", "square": "G2", "orientation": "horizontal"},
        ],
        b=ocean_b(specials_used=["submarine"], diving=True),
    )
    fire = result["a"]["told"]["fire"]
    assert [(e["square"], e["by"], e["result"]) for e in fire] == [
        ("G2", "depth charges", "hit"),
        ("H2", "depth charges", "hit"),
        ("I2", "depth charges", "sunk"),
        ("F2", "heavy shell", "miss"),
        ("F3", "heavy shell", "miss"),
        ("G3", "heavy shell", "miss"),
    ]


def test_a_radar_buoy_gives_a_contact_chosen_by_the_dice(client: FlaskClient) -> None:
    """ruling radar-buoy: candidates are b's unhit ship squares in reading order."""
    data = resolve(client, "salvo", {**salvo_body(["G7", "J1"]), "dice": {"values": [1]}})
    assert data["rolls"] == [
        {"label": "radar buoy G7 (captain a)", "notation": "1d16", "values": [1], "total": 1}
    ]
    result = data["result"]
    assert result["a"]["told"]["radar"] == [{"buoy": "G7", "contact": "G2"}]
    assert result["b"]["own_ocean"]["radar"] == [{"buoy": "G7", "contact": "G2"}]
    assert result["b"]["ocean"]["contacts"] == ["G2"]
    assert result["a"]["view"]["contacts"] == ["G2"]
    assert result["a"]["told"]["loot_bonus"] == 0
    seeded = salvo_body(["G7", "J1"])
    assert resolve(client, "salvo", seeded)["result"] == resolve(client, "salvo", seeded)["result"]


def test_a_radar_buoy_with_nothing_left_to_reveal(client: FlaskClient) -> None:
    b = ocean_b(shots_received=[*SUNK_BUT_DESTROYER_B, "A10"], contacts=["B10"])
    data = resolve(client, "salvo", salvo_body(["G7"], b=b))
    assert data["rolls"] == []
    assert data["result"]["a"]["told"]["radar"] == [{"buoy": "G7", "contact": None}]


# --- the end of the battle ------------------------------------------------------------------------


def test_both_fleets_gone_in_the_same_round_is_a_draw(client: FlaskClient) -> None:
    a = ocean_a(shots_received=[*SUNK_BUT_DESTROYER_A, "I9"])
    b = ocean_b(shots_received=[*SUNK_BUT_DESTROYER_B, "A10"])
    result = round_(client, ["B10"], ["J9"], a=a, b=b)
    assert (result["game_over"], result["winner"], result["draw"]) == (True, None, True)
    assert result["a"]["afloat"] == [] and result["b"]["afloat"] == []
    assert result["a"]["salvo_size"] == 0


def test_sinking_the_last_enemy_ship_wins(client: FlaskClient) -> None:
    b = ocean_b(shots_received=[*SUNK_BUT_DESTROYER_B, "A10"])
    result = round_(client, ["B10"], ["J9"], b=b)
    assert (result["game_over"], result["winner"], result["draw"]) == (True, "a", False)


def test_no_salvo_after_the_battle(client: FlaskClient) -> None:
    """ruling battle-over."""
    b = ocean_b(shots_received=ALL_B)
    problem = refused(client, "salvo", salvo_body(["A2"], b=b))
    assert problem["detail"] == "captain b has no ship afloat: the battle is over"


# --- illegal salvos, each fault named -----------------------------------------------------------

SHELL = {"ship": "battleship", "square": "C3"}


@pytest.mark.parametrize(
    ("a_shots", "a_specials", "a", "field", "words"),
    [
        (["A2", "A3", "A4", "A5", "A6", "A7"], [], None, "a.salvo.shots", "aims 6 shots"),
        (["A2", "A2"], [], None, "a.salvo.shots[1]", "aims at A2 twice in this salvo"),
        (["C4"], [SHELL], None, "a.salvo.shots[0]", "C4 is already under captain a's heavy shell"),
        ([], [SHELL], ocean_a(specials_used=["battleship"]), "a.salvo.specials[0].ship",
         "already used the Battleship's heavy shell earlier in the battle"),
        ([], [SHELL, SHELL], None, "a.salvo.specials[1].ship", "twice in this salvo"),
        ([], [{"ship": "destroyer", "square": "A2", "orientation": "vertical"}],
         ocean_a(shots_received=["I9", "J9"]), "a.salvo.specials[0].ship",
         "Destroyer was sunk before this round"),
        ([], [{"ship": "battleship"}], None, "a.salvo.specials[0].square",
         "heavy shell with square"),
        ([], [{"ship": "battleship", "square": "J10"}], None, "a.salvo.specials[0].square",
         "run off the board at K10, J11, K11"),
        ([], [{"ship": "destroyer", "square": "I1", "orientation": "horizontal"}], None,
         "a.salvo.specials[0].square", "run off the board at K1"),
        ([], [{"ship": "destroyer", "square": "I1"}], None, "a.salvo.specials[0].orientation",
         "depth charges with square and orientation"),
        ([], [{"ship": "cruiser", "row": 2, "column": "B"}], None, "a.salvo.specials[0]",
         "either row"),
        ([], [{"ship": "submarine", "square": "B2"}], None, "a.salvo.specials[0].square",
         "nothing but the ship"),
    ],
)  # fmt: skip
def test_an_illegal_salvo_is_refused_naming_its_fault(
    client: FlaskClient,
    a_shots: list[str],
    a_specials: list[dict[str, Any]],
    a: dict[str, Any] | None,
    field: str,
    words: str,
) -> None:
    problem = refused(client, "salvo", salvo_body(a_shots, a_specials=a_specials, a=a))
    assert problem["type"].endswith("#rule-violation")
    assert problem["errors"][0]["field"] == field
    assert words in problem["detail"]


@pytest.mark.parametrize(
    ("ocean", "field", "words"),
    [
        (ocean_a(contacts=["F2"]), "a.ocean.contacts", "F2, which is open water"),
        (ocean_a(contacts=["A1"], shots_received=["A1"]), "a.ocean.contacts", "already in"),
        (ocean_a(shots_received=["A1", "A1"]), "a.ocean.shots_received", "more than once"),
        (ocean_a(diving=True), "a.ocean.diving", "not in specials_used"),
        ({"fleet": FLEET_A, "loot": [{**p, "kind": "crate"} for p in ocean_a()["loot"]]},
         "a.ocean.loot", "7 crate pieces where an ocean has 3"),
        ({"fleet": FLEET_A, "loot": [{**p, "square": "A1"} if p["kind"] == "mine" else p
                                     for p in ocean_a()["loot"]]},
         "a.ocean.loot", "loot on A1, under a ship"),
        ({"fleet": FLEET_A[:4] * 1 + [FLEET_A[0]], "loot": ocean_a()["loot"]},
         "a.ocean.fleet", "not a legal layout"),
    ],
)  # fmt: skip
def test_an_ocean_the_rules_could_not_produce_is_refused(
    client: FlaskClient, ocean: dict[str, Any], field: str, words: str
) -> None:
    problem = refused(client, "salvo", salvo_body(["A2"], a=ocean))
    assert problem["errors"][0]["field"].startswith(field)
    assert words in problem["detail"]


LOOT = ocean_b()["loot"]


# --- every refusal of a round, word for word, and the one field it names -------------------

COSTS = {"special-needs-its-ship-afloat": "costs-a-shot"}


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
    written = to_json(salvo)
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
    assert shape_schema(Salvo)().load(written) == salvo


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


def test_an_oceans_ships_afloat_are_a_list_of_its_own_each_time() -> None:
    from service.rulesets.salvo_grid.fleet import Ocean, Placement

    ocean = Ocean(
        fleet=(Placement("destroyer", ((0, 0), (1, 0))), Placement("cruiser", ((0, 2), (1, 2)))),
        loot=(),
        shots_received=((0, 0), (1, 0)),
    )
    afloat = ocean.afloat()
    assert afloat == ["cruiser"]
    afloat.clear()
    assert ocean.afloat() == ["cruiser"]
    assert ocean.sunk("destroyer") and not ocean.sunk("cruiser")
    assert ocean.sunk("cruiser", {(0, 2), (1, 2)})


@pytest.mark.parametrize("shot", [35, True, ["C5"], {"square": "C5"}, "c5", "K1", "A11", " C5"])
def test_a_shot_that_is_not_a_square_is_refused_in_the_words_of_a_square(
    client: FlaskClient, shot: Any
) -> None:
    problem = refused(client, "salvo", salvo_body([shot]))
    assert problem["errors"] == [
        {
            "field": "a.salvo.shots.0",
            "message": "Not a square: write a column letter and a row, like C5.",
        }
    ]
