"""Salvo!: a solitaire WWII gunnery duel driven by tables."""

from __future__ import annotations

from ...engine.ruleset import Ruleset, Step
from ...engine.shape import to_json
from . import advice, odds, steps, tables
from .rulings import RULINGS
from .ships import CATALOG

STEPS = (
    Step(
        name="weather",
        summary="Roll the weather",
        description="2d6 on the Weather table. The result also names the modifier for the Initial "
        "Range roll.",
        dice="2d6",
        resolve=steps.weather,
        odds=True,
        exact_odds=odds.weather_odds,
    ),
    Step(
        name="range",
        summary="Roll the initial range",
        description="2d6 on the Initial Range table, modified by the weather.",
        dice="2d6",
        resolve=steps.initial_range,
        odds=True,
        exact_odds=odds.initial_range_odds,
    ),
    Step(
        name="initiative",
        summary="Roll who acts first",
        description="1d6: 1-3 the player, 4+ the enemy; +1 if the "
        "enemy is slower than the player's ship, -1 if faster.",
        dice="1d6",
        resolve=steps.initiative,
        odds=True,
        exact_odds=odds.initiative_odds,
    ),
    Step(
        name="enemy-action",
        summary="Roll the enemy ship's Action",
        description="1d6: 1-2 Close, 3-4 Offer Broadside, "
        "5 the same Action as last turn (OB on turn 1), 6+ Withdraw; +1 if the enemy has the "
        "smaller guns. An enemy at speed 0 always Offers Broadside.",
        dice="1d6",
        resolve=steps.enemy_action,
        odds=True,
        exact_odds=odds.enemy_action_odds,
    ),
    Step(
        name="maneuver",
        summary="Apply both Actions",
        description="Both Actions change the range together (Close one "
        "closer, Withdraw one farther) and decide which guns bear. Past Extreme the ships are "
        "out of range and the game is over. No dice.",
        dice="none",
        resolve=steps.maneuver,
    ),
    Step(
        name="fire",
        summary="Roll on the Fire table",
        description="2d6 against the Fire table for the range, with the "
        "weather and previously-straddled modifiers: a straddle or a miss. Says how many "
        "times the ship fires this turn (twice at Short or Medium).",
        dice="2d6",
        resolve=steps.fire,
        odds=True,
        exact_odds=odds.fire_odds,
    ),
    Step(
        name="straddle",
        summary="Roll on the Straddle table",
        description="3d6 with every modifier: target armor, "
        "the firer's guns bearing, range, the firer's T hits and the gun-size rule.",
        dice="3d6",
        resolve=steps.straddle,
        odds=True,
        exact_odds=odds.straddle_odds,
    ),
    Step(
        name="special-damage",
        summary="Roll on the Special Damage table",
        description="2d6 on the Special Damage table.",
        dice="2d6",
        resolve=steps.special_damage,
        odds=True,
        exact_odds=odds.special_damage_odds,
    ),
    Step(
        name="critical",
        summary="Roll on the Critical Hit table",
        description="2d6 on the Critical Hit table; "
        "Explosion depends on the range, and Plunging fire at Long or Extreme rolls 2d6 "
        "minus the target's armor for FS hits.",
        dice="2d6 (+2d6)",
        resolve=steps.critical,
        odds=True,
        exact_odds=odds.critical_odds,
    ),
    Step(
        name="torpedo",
        summary="Launch torpedoes (CL only)",
        description="A CL at Short range in Fair or Fine weather "
        "rolls 2d6: 10+ hits (-1 against a CL or CA, +3 against a ship slower than 5). A hit "
        "deals 1d6 FS.",
        dice="2d6 (+1d6)",
        resolve=steps.torpedo,
        odds=True,
        exact_odds=odds.torpedo_odds,
    ),
    Step(
        name="damage",
        summary="Apply hits to a ship",
        description="Applies F, T and S hits (and a lost fire control) "
        "to a ship's state and says what it can still do. No dice.",
        dice="none",
        resolve=steps.damage,
    ),
    Step(
        name="end-of-turn",
        summary="Roll on the End of Turn table",
        description="1d6: 1-5 a new turn, 6+ the game is "
        "over; -1 if either ship closed, +1 if either withdrew, +1 Misty, +2 Stormy.",
        dice="1d6",
        resolve=steps.end_of_turn,
        odds=True,
        exact_odds=odds.end_of_turn_odds,
    ),
    Step(
        name="attack",
        summary="One ship's whole fire for a turn",
        description="Every shot of one ship at another for "
        "one turn, each down the full chain (fire, straddle, special damage or critical, "
        "damage), ending with the target's new state.",
        dice="varies",
        resolve=steps.attack,
        odds=True,
        exact_odds=odds.attack_odds,
    ),
    Step(
        name="turn",
        summary="Play a whole turn",
        description="Initiative, the enemy's Action, the maneuver, fire in "
        "gun-size order, torpedoes and the End of Turn roll, from a game state the client "
        "sends back each turn. Returns the new state, the winner or draw, and every event. "
        "Without player_action the answer is result.pending (the initiative, the enemy's "
        "Action when the enemy has it, the Actions the player may choose, the state unchanged) "
        "and the same request with player_action and the same dice finishes the turn.",
        dice="varies",
        resolve=steps.turn,
    ),
    Step(
        name="advice",
        summary="Advise the player's Action",
        description="For each Action the player may take from a game state (the one a turn hands "
        "back), the chances of winning, drawing and losing and the expected number of turns, from "
        "seeded games played with the steps' own odds (the enemy on its table; the player takes "
        "the judged Action this turn, then closes, C, every later turn: Offer Broadside once at "
        "speed 0), with a 95% interval; and the best Action. No dice are rolled for the game "
        "itself: the seed drives the sampled games (docs/advice.md).",
        dice="none (seeded games)",
        resolve=advice.advice,
    ),
)

RULESET = Ruleset(
    id="salvo-solo",
    title="Salvo!",
    source="Salvo! solitaire gunnery rules",
    description="A solitaire WWII gunnery duel between one British and one German ship, "
    "resolved entirely on tables: weather, range, actions, fire, straddles and damage.",
    steps=STEPS,
    tables=tables.as_data(),
    ships=tuple(to_json(card) for card in CATALOG.values()),
    rulings=RULINGS,
)
