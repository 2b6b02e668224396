"""Whole seeded battles, the computer against itself, through the HTTP steps alone.

Checks what must hold in every battle: 17 squares a fleet, seven pieces of loot on open
water, no square fired on twice except contacts, salvo sizes, and that the battle ends.
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rulesets.salvo_grid import RULESET
from tests.salvo_grid_helpers import resolve

DEFAULTS = RULESET.readings_in_force()
MOST_ROUNDS = 110  # each round fires on at least one new square, bar one dive's worth


class Battle:
    """One seeded battle's requests: nonces counting up from 1, each answer chained to the
    last by ``prev``, every request under the same ``rules`` (none: the defaults)."""

    def __init__(self, client: FlaskClient, seed: str, rules: dict[str, str] | None) -> None:
        self.client, self.seed, self.rules = client, seed, rules
        self.log: list[dict[str, Any]] = []

    def step(self, name: str, body: dict[str, Any]) -> Any:
        body = {**body, "dice": {"seed": self.seed, "nonce": len(self.log) + 1}}
        if self.rules is not None:
            body["rules"] = self.rules
        if self.log:
            body["prev"] = hashlib.sha256(self.log[-1]["receipt"].encode()).hexdigest()
        answer = resolve(self.client, name, body)
        assert answer["rules"] == {**DEFAULTS, **(self.rules or {})}
        self.log.append(answer)
        return answer["result"]


def ship_squares(ocean: dict[str, Any]) -> set[str]:
    return {sq for ship in ocean["fleet"] for sq in ship["squares"]}


def play(
    client: FlaskClient, seed: str, rules: dict[str, str] | None = None, level_b: str = "standard"
) -> Battle:
    """A whole battle, the computer against itself (captain b at ``level_b``) under ``rules``;
    the battle, its log included, back."""
    battle = Battle(client, seed, rules)
    step = battle.step
    in_force = {**DEFAULTS, **(rules or {})}
    floor = 1 if in_force["fewer-shots"] == "floor-of-one" else 0
    costs = in_force["special-needs-its-ship-afloat"] == "costs-a-shot"
    oceans = {}
    for captain in ("a", "b"):
        fleet = step("layout", {})["fleet"]
        assert len({sq for ship in fleet for sq in ship["squares"]}) == 17
        loot = step("loot", {"fleet": fleet})["loot"]
        assert len({p["square"] for p in loot}) == 7
        assert not {p["square"] for p in loot} & {sq for s in fleet for sq in s["squares"]}
        oceans[captain] = {"fleet": fleet, "loot": loot}
    views: dict[str, dict[str, Any]] = {"a": {}, "b": {}}
    sizes = {"a": 5, "b": 5}
    rival = {"a": "b", "b": "a"}
    for _ in range(MOST_ROUNDS):
        salvos = {}
        for captain in ("a", "b"):
            body: dict[str, Any] = {"ocean": oceans[captain], "view": views[captain]}
            if captain == "b" and level_b != "standard":
                body["level"] = level_b
            aimed = step("computer", body)
            assert aimed["salvo_size"] == sizes[captain]
            shots = aimed["salvo"]["shots"]
            paid = len(aimed["salvo"]["specials"]) if costs else 0
            assert len(shots) + paid <= sizes[captain]
            assert not set(shots) & set(oceans[rival[captain]].get("shots_received", []))
            ships = {s["ship"] for s in aimed["salvo"]["specials"]}
            assert not ships & {"carrier", "cruiser"}  # never recon or sonar
            salvos[captain] = aimed["salvo"]
        body = {c: {"ocean": oceans[c], "salvo": salvos[c]} for c in ("a", "b")}
        result = step("salvo", body)
        for captain in ("a", "b"):
            before, after = oceans[rival[captain]], result[rival[captain]]["ocean"]
            fired = after["shots_received"]
            assert len(fired) == len(set(fired))  # no square fired on twice...
            assert not set(after["contacts"]) & set(fired)  # ...a contact is not yet fired on
            told = result[captain]["told"]["fire"]
            landed = [e["square"] for e in told if e["result"] != "contact"]
            assert fired == before.get("shots_received", []) + landed
            assert set(after["contacts"]) <= ship_squares(after)
            bonus = sum({"crate": 1, "mine": -1}.get(e["loot"] or "", 0) for e in told)
            afloat = len(result[captain]["afloat"])
            assert result[captain]["salvo_size"] == (max(floor, afloat + bonus) if afloat else 0)
            sizes[captain] = result[captain]["salvo_size"]
            views[captain] = result[captain]["view"]
        oceans = {c: result[c]["ocean"] for c in ("a", "b")}
        if result["game_over"]:
            out = {c: not result[c]["afloat"] for c in ("a", "b")}
            assert result["draw"] == (out["a"] and out["b"])
            if not result["draw"]:
                assert out[rival[result["winner"]]] and not out[result["winner"]]
            return battle
    raise AssertionError(f"seed {seed!r}: no end after {MOST_ROUNDS} rounds")


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.text(min_size=1, max_size=12))
def test_a_whole_battle_ends_and_keeps_the_rules(client: FlaskClient, seed: str) -> None:
    play(client, seed)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.text(min_size=1, max_size=12),
    rules=st.fixed_dictionaries(
        {
            ruling.id: st.sampled_from([reading.id for reading in ruling.readings])
            for ruling in RULESET.optional
        }
    ),
)
def test_a_whole_battle_under_any_readings_ends_and_keeps_them(
    client: FlaskClient, seed: str, rules: dict[str, str]
) -> None:
    """Every ruling with readings, each read either way: the computer's salvos stay legal."""
    play(client, seed, rules)


def test_the_hard_captain_plays_a_whole_battle_under_the_other_readings(
    client: FlaskClient,
) -> None:
    others = {
        ruling.id: next(r.id for r in ruling.readings if not r.default)
        for ruling in RULESET.optional
    }
    battle = play(client, "hard-house-rules", others, level_b="hard")
    levels = {e["result"].get("level") for e in battle.log if e["step"] == "computer"}
    assert levels == {"standard", "hard"}


def test_a_replayed_battle_is_the_same_battle(client: FlaskClient) -> None:
    first, again = play(client, "replay").log, play(client, "replay").log
    assert [e["result"] for e in first] == [e["result"] for e in again]
