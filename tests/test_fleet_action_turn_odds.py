"""The odds of a fleet-action turn's declared fire, against brute force.

The brute force here walks every face of every attack die and of every save, with the
tables typed out in the helpers, and carries the joint Hull of every ship through the
declared attacks in order (ruling declared-fire): none of the service's code is used."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.fleet_action_helpers import BASE, armour, attack, fields_at_fault, hull, printed_to_hit
from tests.http_helpers import call
from tests.worst_cases import FLEET_ODDS

ODDS = f"{BASE}/turn/odds"
FACES = range(1, 7)

Ships = dict[str, tuple[str, str, str, int]]  # name: (player, class, crew, hull lost)


def attack_outcomes(to_hit: int, save: int | None, dice: int) -> dict[tuple[int, bool], Fraction]:
    """(Hull through, catastrophic) of one attack over every face: save None ignores armour."""
    out: dict[tuple[int, bool], Fraction] = {}
    for faces in product(FACES, repeat=dice):
        hits = [face for face in faces if face >= to_hit]
        if save is None:
            key = (len(hits), 6 in hits)
            out[key] = out.get(key, Fraction(0)) + Fraction(1, 6**dice)
            continue
        for saves in product(FACES, repeat=len(hits)):
            failed = [h for h, s in zip(hits, saves, strict=True) if s < save]
            key = (len(failed), 6 in failed)
            out[key] = out.get(key, Fraction(0)) + Fraction(1, 6 ** (dice + len(hits)))
    return out


def brute_force(
    ships: Ships, fire: list[tuple[str, str, str]], visibility: str = "Clear"
) -> dict[str, dict[str, Any]]:
    """Each ship's chance of being sunk, of a catastrophic hit, of each Hull lost, and of
    firing, from the joint state of every ship."""
    names = list(ships)
    # a state: each ship's (hull lost, sunk outright)
    dist: dict[tuple[tuple[int, bool], ...], Fraction] = {
        tuple((ships[n][3], False) for n in names): Fraction(1)
    }
    fires: dict[str, Fraction] = {}

    def sunk(state: tuple[tuple[int, bool], ...], name: str) -> bool:
        return state[names.index(name)][0] >= hull(ships[name][1])

    for firer, weapon, target in fire:
        _, firer_class, crew, _ = ships[firer]
        to_hit = printed_to_hit(crew, visibility)
        if weapon == "guns":
            outcomes = attack_outcomes(to_hit, armour(ships[target][1]), attack(firer_class))
        else:
            outcomes = attack_outcomes(to_hit, None, 3)
        following: dict[tuple[tuple[int, bool], ...], Fraction] = {}
        fires[firer] = Fraction(0)
        for state, p in dist.items():
            if sunk(state, firer) or sunk(state, target):
                following[state] = following.get(state, Fraction(0)) + p
                continue
            fires[firer] += p
            at = names.index(target)
            most = hull(ships[target][1])
            for (through, catastrophic), q in outcomes.items():
                left = most if catastrophic else min(most, state[at][0] + through)
                after = list(state)
                after[at] = (left, catastrophic)
                key = tuple(after)
                following[key] = following.get(key, Fraction(0)) + p * q
        dist = following
    odds: dict[str, dict[str, Any]] = {}
    for at, name in enumerate(names):
        first, most = ships[name][3], hull(ships[name][1])
        lost = dict.fromkeys(range(most - first + 1), Fraction(0))
        sunk_p = outright = Fraction(0)
        for state, p in dist.items():
            lost[state[at][0] - first] += p
            sunk_p += p if state[at][0] >= most else 0
            outright += p if state[at][1] else 0
        odds[name] = {
            "sunk": sunk_p,
            "catastrophic": outright,
            "lost": lost,
            "fires": fires.get(name),
        }
    return odds


def request(ships: Ships, fire: list[tuple[str, str, str]], **extra: Any) -> dict[str, Any]:
    return {
        "state": {
            "turn": 1,
            "ships": [
                {"name": n, "player": p, "class": c, "crew": q, "hull_lost": h}
                for n, (p, c, q, h) in ships.items()
            ],
            **extra.pop("state", {}),
        },
        "fire": [
            {"ship": f, "weapon": w, "target": t, "range": 10, "line_of_sight": True}
            for f, w, t in fire
        ],
        **extra,
    }


def _fraction(chance: dict[str, Any]) -> Fraction:
    return Fraction(chance["probability"])


SMALL_CASES = {
    "a destroyer torpedoes a corvette, which fires back": (
        {"Z1": ("A", "Destroyer", "Veteran", 0), "K1": ("B", "Corvette", "Elite", 0)},
        [("Z1", "torpedoes", "K1"), ("K1", "guns", "Z1")],
        "Clear",
    ),
    "two corvettes at a damaged destroyer, which torpedoes the first between them": (
        {
            "K1": ("A", "Corvette", "Green", 0),
            "K2": ("A", "Corvette", "Seasoned", 0),
            "Z1": ("B", "Destroyer", "Veteran", 1),
        },
        [("K1", "guns", "Z1"), ("Z1", "torpedoes", "K1"), ("K2", "guns", "Z1")],
        "Clear",
    ),
    "three destroyers in the rain, one shot each way and one more": (
        {
            "Z1": ("A", "Destroyer", "Elite", 0),
            "Z2": ("B", "Destroyer", "Seasoned", 0),
            "Z3": ("B", "Destroyer", "Green", 1),
        },
        [("Z2", "guns", "Z1"), ("Z1", "guns", "Z2"), ("Z3", "torpedoes", "Z1")],
        "Poor",
    ),
}


@pytest.mark.parametrize("case", SMALL_CASES)
def test_exact_turn_odds_match_brute_force(client: FlaskClient, case: str) -> None:
    ships, fire, visibility = SMALL_CASES[case]
    body = request(ships, fire, state={"visibility": visibility})
    result = call(client, ODDS, body)["result"]
    assert result["method"]["kind"] == "exact"
    assert result["method"]["samples"] is None
    expected = brute_force(ships, fire, visibility)
    assert [s["name"] for s in result["ships"]] == list(ships)
    for ship in result["ships"]:
        mine = expected[ship["name"]]
        assert _fraction(ship["sunk"]) == mine["sunk"], ship["name"]
        assert _fraction(ship["catastrophic"]) == mine["catastrophic"], ship["name"]
        assert {e["hull_lost"]: _fraction(e["chance"]) for e in ship["hull_lost"]} == mine["lost"]
        if mine["fires"] is None:
            assert ship["fires"] is None
        else:
            assert _fraction(ship["fires"]) == mine["fires"], ship["name"]
        assert "interval" not in ship["sunk"]
        expected_lost = sum(k * p for k, p in mine["lost"].items())
        assert ship["expected_hull_lost"] == pytest.approx(float(expected_lost))


def test_the_rulebooks_example_turn_odds(client: FlaskClient) -> None:
    """The Battleship at Destroyer 1, then Destroyer 2 at the Battleship: Destroyer 2 always
    gets its shot off (nothing fires at it), so the Battleship goes down outright exactly when
    one of 3 dice is a 6 (1/6) whose 2+ save fails (1/6): 1 - (35/36)**3."""
    ships: Ships = {
        "Battleship": ("A", "Battleship", "Veteran", 0),
        "Destroyer 1": ("B", "Destroyer", "Seasoned", 0),
        "Destroyer 2": ("B", "Destroyer", "Seasoned", 0),
    }
    fire = [("Battleship", "guns", "Destroyer 1"), ("Destroyer 2", "guns", "Battleship")]
    result = call(client, ODDS, request(ships, fire))["result"]
    by_name = {s["name"]: s for s in result["ships"]}
    assert _fraction(by_name["Destroyer 2"]["fires"]) == 1
    assert _fraction(by_name["Battleship"]["catastrophic"]) == 1 - Fraction(35, 36) ** 3
    assert _fraction(by_name["Battleship"]["sunk"]) == 1 - Fraction(35, 36) ** 3
    assert _fraction(by_name["Destroyer 2"]["sunk"]) == 0


# --- seeded games --------------------------------------------------------------------------

SEEDED = {"seed": "dogger-bank", "nonce": 3}


def test_seeded_games_agree_with_the_exact_odds(client: FlaskClient) -> None:
    ships, fire, visibility = SMALL_CASES[
        "two corvettes at a damaged destroyer, which torpedoes the first between them"
    ]
    body = request(ships, fire, method="monte-carlo", dice=SEEDED)
    result = call(client, ODDS, body)["result"]
    method = result["method"]
    assert (method["kind"], method["samples"], method["branches"]) == ("monte-carlo", 600, None)
    assert method["algorithm"] == "fc-fleet-turn-odds-v1"
    expected = brute_force(ships, fire, visibility)
    inside = shares = 0
    for ship in result["ships"]:
        mine = expected[ship["name"]]
        pairs = [(ship["sunk"], mine["sunk"]), (ship["catastrophic"], mine["catastrophic"])]
        pairs += [(e["chance"], mine["lost"][e["hull_lost"]]) for e in ship["hull_lost"]]
        for chance, exact in pairs:
            count, samples = map(int, chance["probability"].split("/"))
            assert samples == 600 and chance["p"] == count / samples
            low, high = chance["interval"]
            assert low <= chance["p"] <= high
            shares += 1
            inside += low <= exact <= high
    assert inside >= 0.9 * shares, (inside, shares)


def test_seeded_games_are_reproducible(client: FlaskClient) -> None:
    ships, fire, _ = SMALL_CASES["a destroyer torpedoes a corvette, which fires back"]
    body = request(ships, fire, method="monte-carlo", dice=SEEDED)
    one, two = call(client, ODDS, body), call(client, ODDS, body)
    assert one["result"] == two["result"]
    other = call(client, ODDS, {**body, "dice": {**SEEDED, "nonce": 4}})
    assert other["result"]["ships"] != one["result"]["ships"]


def test_past_the_branch_limit_auto_plays_seeded_games(client: FlaskClient) -> None:
    result = call(client, ODDS, FLEET_ODDS)["result"]
    assert result["method"]["kind"] == "monte-carlo"
    assert "more than 5000 branches" in result["method"]["detail"]
    problem = call(client, ODDS, {**FLEET_ODDS, "method": "exact"}, status=422)
    assert fields_at_fault(problem) == ["method"]
    assert "more than 5000 branches" in problem["detail"]


def test_a_ship_that_moves_then_fires_nothing_is_declared_as_a_turn_takes_it(
    client: FlaskClient,
) -> None:
    # A turn call takes weapon none (the ship moves and its go is over); so do the odds: the
    # ship fires nothing, so its `fires` is null and the odds are those of the rest.
    ships, fire, _ = SMALL_CASES["a destroyer torpedoes a corvette, which fires back"]
    body = request(ships, fire[:1])
    body["fire"].insert(0, {"ship": "K1", "weapon": "none", "moved": 6, "turned": 90})
    by_name = {s["name"]: s for s in call(client, ODDS, body)["result"]["ships"]}
    assert by_name["K1"]["fires"] is None
    assert _fraction(by_name["Z1"]["sunk"]) == 0
    expected = brute_force(ships, fire[:1])
    assert _fraction(by_name["K1"]["sunk"]) == expected["K1"]["sunk"]
    assert _fraction(by_name["Z1"]["fires"]) == 1
    too_far = {"ship": "K1", "weapon": "none", "moved": 7}
    body["fire"][0] = too_far
    problem = call(client, ODDS, body, status=422)
    assert fields_at_fault(problem) == ["fire.0.moved"]


# --- refusals ----------------------------------------------------------------------------

SHIPS: Ships = {
    "Z1": ("A", "Destroyer", "Veteran", 0),
    "K1": ("B", "Corvette", "Elite", 0),
    "K2": ("B", "Corvette", "Elite", 1),
}


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (
            request(SHIPS, [("Z1", "guns", "K1"), ("Z1", "torpedoes", "K1")]),
            "fire.1",
            "Z1 is declared twice",
        ),
        (
            request(
                SHIPS,
                [("Z1", "guns", "K1")],
                state={"first_pick": "A", "next_pick": "B", "gone": ["Z1"]},
            ),
            "fire.0.ship",
            "Z1 has already gone",
        ),
        (request(SHIPS, [("K2", "guns", "Z1")]), "fire.0.ship", "K2 is sunk"),
        (request(SHIPS, [("Z1", "guns", "K2")]), "fire.0.target", "already sunk"),
        (request(SHIPS, [("Z1", "none", "K1")]), "fire.0.target", "names no target"),
        (request(SHIPS, [("K1", "torpedoes", "Z1")]), "fire.0.weapon", "carries no torpedoes"),
        (request(SHIPS, [("Z1", "guns", "K1")], dice={"values": [1]}), "dice", "seeded games"),
    ],
)
def test_a_declaration_the_rules_do_not_allow(
    client: FlaskClient, body: dict[str, Any], field: str, words: str
) -> None:
    problem = call(client, ODDS, body, status=422)
    assert fields_at_fault(problem) == [field]
    assert words in problem["detail"]
