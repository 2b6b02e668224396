"""The odds of a dreadnought turn against brute force on small cases, and the seeded games
past the branch limit.

Two brute forces: the rule text's gunnery written out again here, every face of two
throws at a light target combined by hand; and the turn step itself walked over every face
of every die it rolls (the engine's walk, as tests/test_odds_exact.py does for the single
steps) for one throw at a capital ship, criticals and their own dice included.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from fractions import Fraction
from typing import Any
from unittest import mock

from flask.testing import FlaskClient

from service.engine.dice import DiceSource
from service.engine.distribution import by_face, walk
from service.engine.resolution import Resolution, readings_in_force
from service.http.document.derive import shape_schema
from service.rulesets.dreadnought import turn_odds
from service.rulesets.dreadnought.turn import TurnInput, turn
from tests.dreadnought_helpers import card, declare, in_action, post, refused, turn_body

GF, HSF = "Grand Fleet", "High Seas Fleet"
SVG_NS = "{http://www.w3.org/2000/svg}"


def odds_of(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    answer = post(client, "turn/odds", {**body, "dice": {"seed": "odds", "nonce": 1}})
    result: dict[str, Any] = answer["result"]
    return result


def by_ship(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {entry["ship"]: entry for entry in result["ships"]}


def fractions(entries: list[dict[str, Any]], key: str) -> dict[Any, Fraction]:
    return {e[key]: Fraction(e["chance"]["probability"]) for e in entries}


# --- two cruisers at a third: the rule text by hand --------------------------------------


def _one_cruiser_throw() -> dict[int, Fraction]:
    """A 6" battery of 8 barrels, D8 gunner die, at Southampton with 10 of 30 boxes left.

    Needs 16 (a Protected Cruiser at medium range). To hit: -1 first time, -1 two ships
    at one target, +1 not under fire, +4 for 7 barrels beyond the first (halved, rounded
    up). Damage: Medium, the middle die counted with every die equal to it, +4 barrels,
    less a damage reduction of 2 worn down to 10/30 of it, rounded up: 1. No criticals on
    a light cruiser.
    """
    points: dict[int, Fraction] = {}
    for dice in itertools.product(range(1, 9), repeat=3):
        damage = 0
        if sum(dice) - 1 - 1 + 1 + 4 >= 16:
            middle = sorted(dice)[1]
            damage = max(0, middle * dice.count(middle) + 4 - 1)
        points[damage] = points.get(damage, Fraction(0)) + Fraction(1, 512)
    return points


def test_two_cruisers_at_one_agree_with_every_face_by_hand(client: FlaskClient) -> None:
    body = turn_body(
        [
            in_action(card("Protected Cruiser", (6, 8), name="Arethusa"), GF),
            in_action(card("Protected Cruiser", (6, 8), name="Aurora"), GF),
            in_action("Southampton", HSF, damage_taken=20),
        ],
        [
            declare("Arethusa", (6, "Southampton", 5)),
            declare("Aurora", (6, "Southampton", 5)),
        ],
        turn=1,
    )
    throw = _one_cruiser_throw()
    marked: dict[int, Fraction] = {}
    for (a, p), (b, q) in itertools.product(throw.items(), repeat=2):
        marked[min(10, a + b)] = marked.get(min(10, a + b), Fraction(0)) + p * q

    result = odds_of(client, body)
    assert result["method"]["kind"] == "exact"
    southampton = by_ship(result)["Southampton"]
    assert (southampton["boxes_left"], southampton["attacks"]) == (10, 2)
    assert fractions(southampton["damage"], "points") == marked
    assert Fraction(southampton["sunk"]["probability"]) == marked[10]
    assert southampton["sunk"]["interval"] is None
    assert southampton["criticals"] == []
    # The two firers are under no fire: certain to come through unhurt.
    arethusa = by_ship(result)["Arethusa"]
    assert (arethusa["attacks"], arethusa["sunk"]["probability"]) == (0, "0/1")
    assert fractions(arethusa["damage"], "points") == {0: 1}


# --- one battery at a capital ship: the turn step walked over every face ------------------


def _walk_the_turn(body: dict[str, Any], target: str) -> dict[str, dict[Any, Fraction]]:
    inp: TurnInput = shape_schema(TurnInput)().load(body)

    def play(dice: DiceSource) -> tuple[int, bool, tuple[str, ...]]:
        result = turn(inp, Resolution(dice))
        hit = [e for e in result["events"] if e["phase"] == "damage" and e["ship"] == target]
        sunk = target in result["sunk"]
        return (hit[0]["points"], sunk, tuple(hit[0]["effects"])) if hit else (0, sunk, ())

    with readings_in_force(None, "dreadnought"):
        walked = walk(play, by_face, limit=100_000)
    summed: dict[str, dict[Any, Fraction]] = {"damage": {}, "sunk": {}, "effects": {}}
    for (points, sunk, effects), p in walked.items():
        summed["damage"][points] = summed["damage"].get(points, Fraction(0)) + p
        summed["sunk"][sunk] = summed["sunk"].get(sunk, Fraction(0)) + p
        for effect in set(effects):
            summed["effects"][effect] = summed["effects"].get(effect, Fraction(0)) + p
    return summed


def test_one_battery_at_a_battlecruiser_is_the_walk_of_the_turn(client: FlaskClient) -> None:
    # Queen Elizabeth's 15" at Derfflinger, 31 of 40 boxes gone: doubles are criticals, with
    # their own dice (the blow-up D6 of a German battlecruiser, the rudder's D6).
    body = turn_body(
        [in_action("Queen Elizabeth", GF), in_action("Derfflinger", HSF, damage_taken=31)],
        [declare("Queen Elizabeth", (15, "Derfflinger", 20))],
    )
    walked = _walk_the_turn(body, "Derfflinger")
    derfflinger = by_ship(odds_of(client, body))["Derfflinger"]
    assert fractions(derfflinger["damage"], "points") == walked["damage"]
    assert Fraction(derfflinger["sunk"]["probability"]) == walked["sunk"][True]
    assert fractions(derfflinger["criticals"], "effect") == walked["effects"]
    assert {"ship destroyed", "bridge destroyed", "rudder jammed left"} <= set(walked["effects"])


def test_the_odds_follow_the_readings(client: FlaskClient) -> None:
    # Turn 3, Lion last fired at Derfflinger on turn 1: -1 only when ranging afresh.
    body = turn_body(
        [
            in_action("Lion", GF, fired_at={"Derfflinger": 1}),
            in_action("Derfflinger", HSF),
        ],
        [declare("Lion", (13.5, "Derfflinger", 20))],
        turn=3,
    )
    kept = odds_of(client, body)
    afresh = odds_of(client, {**body, "rules": {"first-time-firing": "since-last-turn"}})
    missed = [
        Fraction(by_ship(r)["Derfflinger"]["damage"][0]["chance"]["probability"])
        for r in (kept, afresh)
    ]
    assert missed[0] < missed[1]


# --- past the branch limit: seeded games ------------------------------------------------------


def _melee() -> dict[str, Any]:
    return turn_body(
        [
            in_action("Queen Elizabeth", GF),
            in_action("Iron Duke", GF),
            in_action("Derfflinger", HSF, damage_taken=20),
            in_action("Seydlitz", HSF),
        ],
        [
            declare("Queen Elizabeth", (15, "Derfflinger", 20)),
            declare("Iron Duke", (13.5, "Derfflinger", 20)),
            declare("Derfflinger", (12, "Queen Elizabeth", 20)),
            declare("Seydlitz", (11, "Queen Elizabeth", 20)),
        ],
    )


def test_past_the_branch_limit_the_odds_are_seeded_games(client: FlaskClient) -> None:
    exact = odds_of(client, _melee())
    assert exact["method"]["kind"] == "exact"
    with mock.patch.object(turn_odds, "BRANCH_LIMIT", 10):
        sampled = odds_of(client, _melee())
        again = odds_of(client, _melee())
    assert sampled == again  # the same seed, the same games
    method = sampled["method"]
    assert (method["kind"], method["games"], method["branch_limit"]) == ("seeded-games", 200, 10)
    for name, ship in by_ship(sampled).items():
        counts = [int(e["chance"]["probability"].split("/")[0]) for e in ship["damage"]]
        assert sum(counts) == 200, name
        low, high = ship["sunk"]["interval"]
        assert low <= by_ship(exact)[name]["sunk"]["p"] <= high, name


def test_the_odds_take_a_seed_not_dice_rolled_at_the_table(client: FlaskClient) -> None:
    problem = refused(client, "turn/odds", {**_melee(), "dice": {"values": [1]}})
    assert problem["errors"][0]["field"] == "dice"
    assert "the odds of a turn roll no dice of the game" in problem["detail"]


def test_the_turn_and_its_odds_take_one_request_component(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").get_json()["paths"]

    def request(path: str) -> str:
        body = paths[f"/v1/rulesets/dreadnought/{path}"]["post"]["requestBody"]
        ref: str = body["content"]["application/json"]["schema"]["$ref"]
        return ref

    assert request("turn") == request("turn/odds") == "#/components/schemas/DreadnoughtTurnRequest"


def test_the_same_body_is_played_and_its_odds_given(client: FlaskClient) -> None:
    body = {
        **_melee(),
        "dice": {"seed": "one body", "nonce": 3},
        "prev": "ab" * 32,
        "rules": {"first-time-firing": "since-last-turn"},
    }
    played = post(client, "turn", body)["result"]
    odds = post(client, "turn/odds", body)["result"]
    assert odds["turn"] == played["turn"] == 2
    afloat = [(ship["name"], ship["side"]) for ship in played["ships"]]
    assert [(ship["ship"], ship["side"]) for ship in odds["ships"]] == afloat


def test_the_odds_picture_shows_the_json_chances(client: FlaskClient) -> None:
    body = {**_melee(), "dice": {"seed": "odds", "nonce": 1}}
    answer = post(client, "turn/odds", body)["result"]
    response = client.post(
        "/v1/rulesets/dreadnought/turn/odds", json=body, headers={"Accept": "image/svg+xml"}
    )
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    picture = ET.fromstring(response.get_data(as_text=True))
    bars = [g for g in picture.iter(f"{SVG_NS}g") if g.get("data-chance") is not None]
    shown = {
        (int(g.get("data-group", "")), g.get("data-chance")): g.get("data-probability")
        for g in bars
    }
    for number, ship in enumerate(answer["ships"]):
        assert shown[(number, "sunk")] == str(Fraction(ship["sunk"]["probability"]))
        for critical in ship["criticals"]:
            chance = Fraction(critical["chance"]["probability"])
            assert shown[(number, critical["effect"])] == str(chance)
        untouched = fractions(ship["damage"], "points").get(0, Fraction(0))
        assert shown[(number, "any damage")] == str(1 - untouched)
