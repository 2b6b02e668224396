"""Invariants of Salvo! over many seeds and states (hypothesis)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.dice import SeededDice
from service.engine.ruleset import run_step, step_odds
from service.rulesets.salvo_solo import RULESET, steps
from service.rulesets.salvo_solo.results import (
    SalvoSoloAction,
    SalvoSoloBearing,
    SalvoSoloRange,
    SalvoSoloWeather,
)
from service.rulesets.salvo_solo.ships import CATALOG, Ship, ShipState
from service.rulesets.salvo_solo.tables import RANGES, STRADDLE, WEATHERS

NAMES = sorted(CATALOG)
OUTCOMES = {result for _, _, result in STRADDLE if result is not None}

states = st.builds(
    ShipState,
    flotation_hits=st.integers(0, 3),
    turret_hits=st.integers(0, 3),
    speed_hits=st.integers(0, 3),
    fire_control=st.sampled_from(["ready", "lost-next-turn"]),
)
ships = st.builds(Ship, st.sampled_from(NAMES).map(CATALOG.__getitem__), states)


@settings(max_examples=150, deadline=None)
@given(
    player=ships,
    enemy=ships,
    weather=st.sampled_from(WEATHERS),
    range_=st.sampled_from(RANGES),
    action=st.sampled_from(["C", "OB", "W"]),
    seed=st.text(min_size=1, max_size=12),
    nonce=st.integers(0, 10**6),
)
def test_a_turn_never_repairs_and_always_hands_back_a_playable_state(
    player: Ship,
    enemy: Ship,
    weather: SalvoSoloWeather,
    range_: SalvoSoloRange,
    action: SalvoSoloAction,
    seed: str,
    nonce: int,
) -> None:
    if player.must_offer_broadside:
        action = "OB"
    state = steps.GameState(1, weather, range_, player, enemy)
    envelope = run_step(
        "salvo-solo", RULESET.step("turn"), steps.TurnInput(state, action), SeededDice(seed, nonce)
    )
    result: dict[str, Any] = envelope["result"]
    after = result["state"]
    assert after["turn"] == 2 and after["weather"] == weather
    for role, before in (("player", player), ("enemy", enemy)):
        hits = after[role]["state"]
        assert hits["flotation_hits"] >= before.state.flotation_hits
        assert hits["turret_hits"] >= before.state.turret_hits
        assert hits["speed_hits"] >= before.state.speed_hits
    if result["game_over"]:
        assert result["draw"] != (result["winner"] is not None)
    else:
        assert after["range"] in RANGES
    for check in envelope["modifiers"]:
        assert check["final"] == check["natural"] + sum(m["value"] for m in check["applied"])
    labels = [roll["label"] for roll in envelope["rolls"]]
    assert (
        labels[:2] == ["initiative", "enemy action"]
        or player.must_offer_broadside
        or (enemy.must_offer_broadside and labels[:1] == ["initiative"])
    )


@settings(max_examples=40, deadline=None)
@given(
    firer=ships,
    target=ships,
    range_=st.sampled_from(RANGES),
    bearing=st.sampled_from(["bow", "broadside", "stern"]),
)
def test_straddle_odds_are_a_distribution_over_the_table(
    firer: Ship, target: Ship, range_: SalvoSoloRange, bearing: SalvoSoloBearing
) -> None:
    if firer.why_cannot_fire() or target.sunk:
        return
    odds = step_odds(
        "salvo-solo", RULESET.step("straddle"), steps.StraddleInput(firer, target, range_, bearing)
    )
    assert sum(Fraction(o["probability"]) for o in odds["outcomes"]) == 1
    assert {o["result"]["outcome"] for o in odds["outcomes"]} <= OUTCOMES
