"""Fleet Action rule options: visibility-torpedoes both ways with supplied dice,
its odds, and a seeded game under the other reading that verifies."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.rulesets.fleet_action import RULESET
from tests.fleet_action_helpers import check, resolve, ship, shot
from tests.http_helpers import call
from tests.receipts_helpers import receipt_hash

BASE = "/v1/rulesets/fleet-action"
GUNS_ONLY = {"visibility-torpedoes": "guns-only"}
# Every answer echoes every reading in force, the defaults of the others included.
DEFAULTS = {"visibility-torpedoes": "same-as-guns", "initiative-each-turn": "every-turn"}


def test_every_fleet_action_reading_is_listed() -> None:
    assert {r.id: [x.id for x in r.readings] for r in RULESET.optional} == {
        "visibility-torpedoes": ["same-as-guns", "guns-only"],
        "initiative-each-turn": ["every-turn", "once-a-game"],
    }


@pytest.mark.parametrize("visibility", ["Poor", "Terrible"])
def test_visibility_torpedoes_both_ways(client: FlaskClient, visibility: str) -> None:
    # A Veteran Destroyer (4+): a 4 hits in any visibility only if visibility is a gun rule
    body = shot(ship("Destroyer", "Veteran"), ship("Cruiser"), 10, visibility)
    default = resolve(client, "torpedo", body, [4, 4, 1])
    assert default["result"]["hits"] == 0
    assert default["rules"] == DEFAULTS
    other = resolve(client, "torpedo", {**body, "rules": GUNS_ONLY}, [4, 4, 1])
    assert other["result"]["hits"] == 2
    assert other["rules"] == {**DEFAULTS, **GUNS_ONLY}
    to_hit = check(other, "To Hit number")
    assert to_hit["final"] == 4
    assert to_hit["applied"] == []
    assert "guns-only" in to_hit["compared_with"]
    assert check(other, "torpedo die 1")["compared_with"] == "To Hit 4+"


def test_guns_keep_visibility_under_either_reading(client: FlaskClient) -> None:
    body = shot(ship("Cruiser", "Veteran"), ship("Cruiser"), 10, "Terrible")
    for rules in ({}, GUNS_ONLY):
        data = resolve(client, "fire", {**body, "rules": rules}, [4, 4, 4, 4])
        assert data["result"]["hits"] == 0, rules
        assert check(data, "To Hit number")["final"] == 6, rules


def test_torpedo_odds_follow_the_reading(client: FlaskClient) -> None:
    body = shot(ship("Destroyer", "Veteran"), ship("Cruiser"), 10, "Terrible")
    body.pop("dice", None)

    def no_hit(odds: dict[str, Any]) -> Fraction:
        found = [o for o in odds["outcomes"] if o["result"]["hits"] == 0]
        return Fraction(found[0]["probability"])

    default = call(client, f"{BASE}/torpedo/odds", body)
    other = call(client, f"{BASE}/torpedo/odds", {**body, "rules": GUNS_ONLY})
    assert default["rules"] == DEFAULTS
    assert other["rules"] == {**DEFAULTS, **GUNS_ONLY}
    # 6+ in terrible visibility: 5/6 a die misses; 4+ under guns-only: 3/6
    assert no_hit(default) == Fraction(5, 6) ** 3
    assert no_hit(other) == Fraction(1, 2) ** 3


def test_a_seeded_game_under_the_other_reading_verifies(client: FlaskClient) -> None:
    torpedo = shot(ship("Destroyer", "Veteran"), ship("Cruiser"), 10, "Poor")
    guns = shot(ship("Battleship", "Elite"), ship("Destroyer"), 30, "Poor")
    log: list[dict[str, Any]] = []
    for nonce, (step, body) in enumerate(
        [("initiative", {}), ("torpedo", torpedo), ("fire", guns), ("torpedo", torpedo)], 1
    ):
        request: dict[str, Any] = {**body, "rules": GUNS_ONLY}
        request["dice"] = {"seed": "skagerrak", "nonce": nonce}
        if log:
            request["prev"] = receipt_hash(log[-1])
        log.append(call(client, f"{BASE}/{step}", request))
    assert all(entry["rules"] == {**DEFAULTS, **GUNS_ONLY} for entry in log)
    report = call(client, "/v1/receipts/verify", log)  # type: ignore[arg-type]
    assert report["valid"] is True, report


# --- the To Hit number of a torpedo under each visibility-torpedoes reading ---------------


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (
            {"visibility-torpedoes": "guns-only"},
            {
                "roll": "To Hit number",
                "natural": 4,
                "applied": [],
                "final": 4,
                "compared_with": "Veteran crew 4+; visibility does not touch torpedoes "
                "(ruling visibility-torpedoes, reading guns-only)",
                "outcome": "4+",
            },
        ),
        (
            {},
            {
                "roll": "To Hit number",
                "natural": 4,
                "applied": [{"source": "Poor visibility", "value": 1}],
                "final": 5,
                "compared_with": "Veteran crew 4+, raised by visibility, never worse than 6+",
                "outcome": "5+",
            },
        ),
    ],
)
def test_fleet_torpedo_to_hit_trail_under_each_visibility_reading(
    client: FlaskClient, rules: dict[str, str], expected: dict[str, Any]
) -> None:
    # A Veteran Destroyer (4+) in Poor visibility: guns-only leaves its torpedoes at 4+ and
    # the trail says why; the default raises them to 5+ like its guns.
    body = {
        "firer": {"class": "Destroyer", "crew": "Veteran"},
        "target": {"class": "Cruiser"},
        "range": 10,
        "line_of_sight": True,
        "visibility": "Poor",
        "rules": rules,
        "dice": {"values": [4, 4, 1]},
    }
    response = client.post("/v1/rulesets/fleet-action/torpedo", json=body)
    assert response.status_code == 200, response.get_json()
    assert check(response.get_json(), "To Hit number") == expected
