"""Dreadnought rule options: every reading both ways with supplied dice, the odds
that follow each reading, and a seeded game played with the other readings that verifies."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.rulesets.dreadnought import RULESET
from tests.dreadnought_helpers import card, post, ship
from tests.http_helpers import call, check_of
from tests.receipts_helpers import receipt_hash

BASE = "/v1/rulesets/dreadnought"
QE = {"ship": "Queen Elizabeth"}
DERFFLINGER = {"ship": "Derfflinger"}
V_BOAT = {"ship": "V-class torpedo boat"}  # German: D10 gunner die
SOUTHAMPTON = {"ship": "Southampton"}  # Protected Cruiser, to hit 16, damage reduction 2


def _torpedo(values: list[int], rules: dict[str, str], **extra: Any) -> dict[str, Any]:
    body = {"firer": V_BOAT, "target": SOUTHAMPTON, "distance": 8, **extra}
    return {**body, "rules": rules, "dice": {"values": values}}


def test_every_dreadnought_reading_is_listed() -> None:
    assert {r.id: [x.id for x in r.readings] for r in RULESET.optional} == {
        "barrels-bonus": ["beyond-the-first", "damage-every-barrel"],
        "blow-up-who": ["every-british-battleship", "pre-dreadnought-only"],
        "torpedo-throws": ["torpedo-bonus-only", "gunnery-modifiers"],
        "torpedo-count": ["beyond-the-first", "every-torpedo"],
        "two-turrets": ["turrets-left", "as-built"],
        "first-time-firing": ["first-turn-at-target", "since-last-turn"],
        "jammed-rudder": ["turns-every-turn", "as-measured"],
        "rudder-repair": ["next-turn", "same-turn"],
    }


# --- blow-up-who ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "every", "pre_dreadnought"),
    [
        # (the ship, the blow-up chance under each reading); 6 on the blow-up die
        ({"ship": "Iron Duke"}, "1 in D6", None),
        ({"ship": "Dreadnought"}, "1 in D6", None),
        ({"ship": "Derfflinger"}, "1 in D6", "1 in D6"),
        ({"ship": "Lion"}, "2 in D6", "2 in D6"),
        (ship(card("Battleship", (12, 8, 4))), "1 in D6", "1 in D6"),
        ({"ship": "König"}, None, None),
    ],
)
def test_blow_up_who_both_ways(
    client: FlaskClient, target: dict[str, Any], every: str | None, pre_dreadnought: str | None
) -> None:
    for reading, chance in (
        ("every-british-battleship", every),
        ("pre-dreadnought-only", pre_dreadnought),
    ):
        body = {"target": target, "throw": "double 8", "rules": {"blow-up-who": reading}}
        if chance is None:
            data = post(client, "critical", {**body, "dice": {"seed": "no die"}})
            assert data["rolls"] == [], reading
            assert data["result"]["effect"] == "turret destroyed", reading
            continue
        data = call(client, f"{BASE}/critical", body, values=[6])
        assert chance in check_of(data, "critical: blow up")["compared_with"], reading
        assert data["result"]["effect"] == "ship destroyed", reading


# --- two-turrets ----------------------------------------------------------------------------


def test_two_turrets_both_ways(client: FlaskClient) -> None:
    # Queen Elizabeth, built with 4 turrets, has lost 2: a 3 on the first D6 is "no effect"
    # when the turrets left count, a 3 on the blow-up die when the turrets built count.
    battered = {"ship": "Queen Elizabeth", "state": {"turrets_lost": 2}}
    body = {"target": battered, "throw": "double 8"}
    left = call(client, f"{BASE}/critical", body, values=[3])
    assert left["result"]["effect"] == "no effect"
    assert check_of(left, "critical: two turrets")["compared_with"].startswith("2 main turret(s)")
    # (a British Super Dreadnought rolls to blow up under every-british-battleship only)
    rules = {"two-turrets": "as-built", "blow-up-who": "every-british-battleship"}
    as_built = {**body, "rules": rules}
    built = call(client, f"{BASE}/critical", as_built, values=[3])
    assert built["result"]["effect"] == "turret destroyed"
    assert [roll["label"] for roll in built["rolls"]] == ["critical: blow up"]
    assert call(client, f"{BASE}/critical", as_built, values=[6])["result"]["effect"] == (
        "ship destroyed"
    )
    # a ship built with two turrets rolls the D6 under both readings
    pommern = {"target": {"ship": "Pommern"}, "throw": "double 8"}
    for rules in ({}, {"two-turrets": "as-built"}):
        data = call(client, f"{BASE}/critical", {**pommern, "rules": rules}, values=[2])
        assert data["result"]["effect"] == "no effect", rules
        assert len(data["rolls"]) == 1, rules


def test_the_two_turrets_roll_names_the_turrets_it_counts(client: FlaskClient) -> None:
    # The trail says which count the roll was taken on: the turrets left by default, the
    # turrets built under as-built (a mutation run found the as-built words unguarded).
    pommern = {"target": {"ship": "Pommern"}, "throw": "double 8"}
    words = {}
    for rules in ({}, {"two-turrets": "as-built"}):
        data = call(client, f"{BASE}/critical", {**pommern, "rules": rules}, values=[2])
        words[rules.get("two-turrets", "left")] = check_of(data, "critical: two turrets")[
            "compared_with"
        ]
    assert words == {
        "left": "2 main turret(s): 1-3 no effect, 4-6 the turret explodes",
        "as-built": "built with 2 main turret(s): 1-3 no effect, 4-6 the turret explodes",
    }


# --- torpedo-throws -----------------------------------------------------------------------


BONUS_ONLY = {"torpedo-throws": "torpedo-bonus-only", "torpedo-count": "beyond-the-first"}
BEYOND = {"torpedo-count": "beyond-the-first"}


def test_torpedo_gunnery_modifiers_both_ways(client: FlaskClient) -> None:
    # 3 + 4 + 5 = 12, 4 torpedoes +3: 15 against Southampton's 16 misses by one
    bonus_only = post(client, "torpedo", _torpedo([3, 4, 5], BONUS_ONLY, torpedoes=4))
    assert bonus_only["result"]["hit"] is False
    body = _torpedo([3, 4, 5], BEYOND, torpedoes=4, not_under_fire=True)
    data = post(client, "torpedo", body)
    assert data["rules"]["torpedo-throws"] == "gunnery-modifiers"
    assert data["result"]["hit"] is True
    sources = [m["source"] for m in check_of(data, "torpedo")["applied"]]
    assert sources == ["not under fire this turn", "4 torpedoes: +1 per torpedo beyond the first"]


def test_by_default_the_to_hit_modifiers_never_exempt_torpedoes(client: FlaskClient) -> None:
    # The To Hit Modifiers table names no weapon: by default a torpedo throw takes them, as
    # a gun's does (ruling torpedo-throws); 3 + 4 + 5 = 12, +1 for the torpedo, -1 turned.
    data = post(client, "torpedo", _torpedo([3, 4, 5], {}, firer_turned=True))
    assert data["rules"]["torpedo-throws"] == "gunnery-modifiers"
    assert check_of(data, "torpedo")["applied"][0] == {
        "source": "firing ship turned this turn",
        "value": -1,
    }


def test_torpedo_gunnery_reading_counts_the_firers_director(client: FlaskClient) -> None:
    boat = {**V_BOAT, "state": {"director_destroyed": True}}
    # 3 + 4 + 6 = 13, +3: 16 hits Southampton unless the director's -2 applies
    hit = post(client, "torpedo", _torpedo([3, 4, 6], BONUS_ONLY, firer=boat, torpedoes=4))
    assert hit["result"]["hit"] is True
    miss = post(client, "torpedo", _torpedo([3, 4, 6], BEYOND, firer=boat, torpedoes=4))
    assert miss["result"]["hit"] is False
    assert {"source": "director down", "value": -2} in check_of(miss, "torpedo")["applied"]


@pytest.mark.parametrize(
    "flag",
    [
        "firer_turned",
        "target_turned",
        "first_time_at_target",
        "more_than_one_ship_firing",
        "not_under_fire",
    ],
)
def test_a_gunnery_flag_under_the_torpedo_bonus_only_reading_is_refused(
    client: FlaskClient, flag: str
) -> None:
    body = _torpedo([3, 4, 5], BONUS_ONLY, **{flag: True})
    data = call(client, f"{BASE}/torpedo", body, status=422)
    assert data["errors"][0]["field"] == flag
    # word for word (a mutation run found the words after the flag's name unguarded)
    assert data["detail"] == (
        f"{flag}: the gunnery to-hit modifiers do not apply to torpedoes under the "
        "torpedo-bonus-only reading of ruling torpedo-throws; send rules.torpedo-throws "
        '"gunnery-modifiers" (the default) to play them, or leave the flag out'
    )


# --- torpedo-count -------------------------------------------------------------------------


def test_torpedo_count_both_ways_plus_1_per_torpedo_by_default(client: FlaskClient) -> None:
    # One torpedo, 3 + 4 + 8 = 15: short of 16 unless the first torpedo counts, as the
    # torpedo row's '+1 per torpedo' does by default
    miss = post(client, "torpedo", _torpedo([3, 4, 8], BEYOND))
    assert miss["result"]["hit"] is False
    every: dict[str, str] = {}
    hit = post(client, "torpedo", _torpedo([3, 4, 8], every))
    assert hit["rules"]["torpedo-count"] == "every-torpedo"
    assert hit["result"]["hit"] is True
    # All damage 15, +1 for the torpedo, less Southampton's 2
    assert hit["result"]["damage"] == 14
    applied = check_of(hit, "torpedo damage")["applied"]
    assert applied[0] == {"source": "1 torpedoes: +1 per torpedo (every torpedo)", "value": 1}
    four = post(client, "torpedo", _torpedo([6, 6, 9], every, torpedoes=4))
    assert four["result"]["damage"] == 21 + 4 - 2
    four_beyond = post(client, "torpedo", _torpedo([6, 6, 9], BEYOND, torpedoes=4))
    assert four_beyond["result"]["damage"] == 21 + 3 - 2


# --- barrels-bonus --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("battery", "barrels", "default", "every"),
    [
        (15, 8, 7, 8),  # High: +1 per barrel
        (6, 8, 4, 4),  # Medium: +1/2 rounded up: 7 -> 4, 8 -> 4
        (6, 7, 3, 4),  # Medium: 6 -> 3, 7 -> 4
        (15, 1, 0, 1),  # a single gun
    ],
)
def test_barrels_damage_bonus_both_ways(
    client: FlaskClient, battery: float, barrels: int, default: int, every: int
) -> None:
    firer = ship(card("Super Dreadnought", (battery, barrels), nationality="German"))
    heavy = battery > 9
    target = DERFFLINGER if heavy else SOUTHAMPTON
    body = {"firer": firer, "battery": battery, "target": target, "distance": 1}
    for reading, bonus in (("beyond-the-first", default), ("damage-every-barrel", every)):
        data = call(
            client, f"{BASE}/fire", {**body, "rules": {"barrels-bonus": reading}}, [8, 7, 9]
        )
        assert data["result"]["hit"] is True
        assert _barrels(check_of(data, "damage")) == bonus, reading
        # to hit counts the barrels beyond the first under both readings (the text's example)
        assert _barrels(check_of(data, "to hit")) == barrels // 2, reading


def _barrels(check: dict[str, Any]) -> int:
    """The barrels bonus of a check (a modifier of 0 is not listed)."""
    found = [m["value"] for m in check["applied"] if " barrels: " in m["source"]]
    return sum(found)


# --- odds follow the readings --------------------------------------------------------------


@pytest.mark.parametrize(
    ("step", "body", "rules"),
    [
        (
            "torpedo",
            {"firer": V_BOAT, "target": SOUTHAMPTON, "distance": 8},
            {"torpedo-count": "beyond-the-first"},
        ),
        (
            "torpedo",
            {
                "firer": {**V_BOAT, "state": {"director_destroyed": True}},
                "target": SOUTHAMPTON,
                "distance": 8,
            },
            {"torpedo-throws": "torpedo-bonus-only"},
        ),
        (
            "fire",
            {"firer": QE, "battery": 15, "target": DERFFLINGER, "distance": 20},
            {"barrels-bonus": "damage-every-barrel"},
        ),
        (
            "fire",
            {"firer": DERFFLINGER, "battery": 12, "target": QE, "distance": 20},
            {"blow-up-who": "every-british-battleship"},
        ),
        (
            "critical",
            {
                "target": {"ship": "Queen Elizabeth", "state": {"turrets_lost": 3}},
                "throw": "double 8",
            },
            {"two-turrets": "as-built"},
        ),
    ],
)
def test_odds_differ_where_the_readings_differ(
    client: FlaskClient, step: str, body: dict[str, Any], rules: dict[str, str]
) -> None:
    other = post(client, f"{step}/odds", {**body, "rules": rules})
    assert {**other["rules"], **rules} == other["rules"]
    defaults = {key: value for key, value in body.items() if key != "target_turned"}
    default = post(client, f"{step}/odds", defaults)
    assert default["rules"] == RULESET.readings_in_force()

    def chances(odds: dict[str, Any]) -> dict[str, str]:
        return {str(sorted(o["result"].items())): o["probability"] for o in odds["outcomes"]}

    assert chances(other) != chances(default)


def test_odds_of_each_reading_agree_with_its_rolls(client: FlaskClient) -> None:
    # Under every-torpedo a single torpedo needs 15 on 2D6 + D10: exactly the share of the
    # 360 throws that reach it, as the odds say.
    body = {"firer": V_BOAT, "target": SOUTHAMPTON, "distance": 8}
    odds = post(client, "torpedo/odds", {**body, "rules": {"torpedo-count": "every-torpedo"}})
    hit = sum(_fraction(o["probability"]) for o in odds["outcomes"] if o["result"]["hit"] is True)
    reaching = sum(
        1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 11) if a + b + c + 1 >= 16
    )
    assert hit == _fraction(f"{reaching}/360")


def _fraction(text: str) -> Any:
    from fractions import Fraction

    return Fraction(text)


# --- a game with the other readings verifies ------------------------------------------------

OTHER = {
    "barrels-bonus": "damage-every-barrel",
    "blow-up-who": "pre-dreadnought-only",
    "torpedo-throws": "gunnery-modifiers",
    "torpedo-count": "every-torpedo",
    "two-turrets": "as-built",
    "first-time-firing": "since-last-turn",
    "jammed-rudder": "as-measured",
    "rudder-repair": "same-turn",
}


def test_a_seeded_game_with_the_other_readings_verifies(client: FlaskClient) -> None:
    steps: list[tuple[str, dict[str, Any]]] = [
        ("fire", {"firer": QE, "battery": 15, "target": DERFFLINGER, "distance": 12}),
        ("fire", {"firer": DERFFLINGER, "battery": 12, "target": QE, "distance": 12}),
        ("critical", {"target": QE, "throw": "double 8"}),
        ("torpedo", {"firer": V_BOAT, "target": SOUTHAMPTON, "distance": 6, "torpedoes": 2}),
        ("rudder", {"ship": {"ship": "Seydlitz", "state": {"rudder_jammed": "left"}}}),
        (
            "turn",
            {
                "state": {
                    "turn": 1,
                    "ships": [
                        {"side": "Grand Fleet", "ship": QE},
                        {"side": "High Seas Fleet", "ship": DERFFLINGER},
                    ],
                },
                "declarations": [
                    {
                        "ship": "Queen Elizabeth",
                        "fire": [{"battery": 15, "target": "Derfflinger", "distance": 12}],
                    },
                    {
                        "ship": "Derfflinger",
                        "fire": [{"battery": 12, "target": "Queen Elizabeth", "distance": 12}],
                    },
                ],
            },
        ),
    ]
    log: list[dict[str, Any]] = []
    for nonce, (step, inputs) in enumerate(steps, start=1):
        body: dict[str, Any] = {
            **inputs,
            "rules": OTHER,
            "dice": {"seed": "dogger", "nonce": nonce},
        }
        if log:
            body["prev"] = receipt_hash(log[-1])
        log.append(post(client, step, body))
    assert all(entry["rules"] == OTHER for entry in log)
    report = call(client, "/v1/receipts/verify", log)  # type: ignore[arg-type]
    assert report["valid"] is True, report
    assert all(entry["signature_valid"] and entry["dice_valid"] for entry in report["entries"])
