"""Salvo!: a solitaire WWII gunnery duel driven by tables."""

from __future__ import annotations

from ...engine.ruleset import Ruleset, Step
from . import advice, odds, steps, tables
from .rulings import RULINGS
from .ships import CATALOG

STEPS = (
    Step(
        "weather",
        "Roll the weather",
        "2d6 on the Weather table. The result also names the modifier for the Initial Range roll.",
        "2d6",
        steps.weather,
        odds=True,
        exact_odds=odds.weather_odds,
    ),
    Step(
        "range",
        "Roll the initial range",
        "2d6 on the Initial Range table, modified by the weather.",
        "2d6",
        steps.initial_range,
        odds=True,
        exact_odds=odds.initial_range_odds,
    ),
    Step(
        "initiative",
        "Roll who acts first",
        "1d6: 1-3 the player, 4+ the enemy; +1 if the "
        "enemy is slower than the player's ship, -1 if faster.",
        "1d6",
        steps.initiative,
        odds=True,
        exact_odds=odds.initiative_odds,
    ),
    Step(
        "enemy-action",
        "Roll the enemy ship's Action",
        "1d6: 1-2 Close, 3-4 Offer Broadside, "
        "5 the same Action as last turn (OB on turn 1), 6+ Withdraw; +1 if the enemy has the "
        "smaller guns. An enemy at speed 0 always Offers Broadside.",
        "1d6",
        steps.enemy_action,
        odds=True,
        exact_odds=odds.enemy_action_odds,
    ),
    Step(
        "maneuver",
        "Apply both Actions",
        "Both Actions change the range together (Close one "
        "closer, Withdraw one farther) and decide which guns bear. Past Extreme the ships are "
        "out of range and the game is over. No dice.",
        "none",
        steps.maneuver,
    ),
    Step(
        "fire",
        "Roll on the Fire table",
        "2d6 against the Fire table for the range, with the "
        "weather and previously-straddled modifiers: a straddle or a miss. Says how many "
        "times the ship fires this turn (twice at Short or Medium).",
        "2d6",
        steps.fire,
        odds=True,
        exact_odds=odds.fire_odds,
    ),
    Step(
        "straddle",
        "Roll on the Straddle table",
        "3d6 with every modifier: target armor, "
        "the firer's guns bearing, range, the firer's T hits and the gun-size rule.",
        "3d6",
        steps.straddle,
        odds=True,
        exact_odds=odds.straddle_odds,
    ),
    Step(
        "special-damage",
        "Roll on the Special Damage table",
        "2d6 on the Special Damage table.",
        "2d6",
        steps.special_damage,
        odds=True,
        exact_odds=odds.special_damage_odds,
    ),
    Step(
        "critical",
        "Roll on the Critical Hit table",
        "2d6 on the Critical Hit table; "
        "Explosion depends on the range, and Plunging fire at Long or Extreme rolls 2d6 "
        "minus the target's armor for FS hits.",
        "2d6 (+2d6)",
        steps.critical,
        odds=True,
        exact_odds=odds.critical_odds,
    ),
    Step(
        "torpedo",
        "Launch torpedoes (CL only)",
        "A CL at Short range in Fair or Fine weather "
        "rolls 2d6: 10+ hits (-1 against a CL or CA, +3 against a ship slower than 5). A hit "
        "deals 1d6 FS.",
        "2d6 (+1d6)",
        steps.torpedo,
        odds=True,
        exact_odds=odds.torpedo_odds,
    ),
    Step(
        "damage",
        "Apply hits to a ship",
        "Applies F, T and S hits (and a lost fire control) "
        "to a ship's state and says what it can still do. No dice.",
        "none",
        steps.damage,
    ),
    Step(
        "end-of-turn",
        "Roll on the End of Turn table",
        "1d6: 1-5 a new turn, 6+ the game is "
        "over; -1 if either ship closed, +1 if either withdrew, +1 Misty, +2 Stormy.",
        "1d6",
        steps.end_of_turn,
        odds=True,
        exact_odds=odds.end_of_turn_odds,
    ),
    Step(
        "attack",
        "One ship's whole fire for a turn",
        "Every shot of one ship at another for "
        "one turn, each down the full chain (fire, straddle, special damage or critical, "
        "damage), ending with the target's new state.",
        "varies",
        steps.attack,
        odds=True,
        exact_odds=odds.attack_odds,
    ),
    Step(
        "turn",
        "Play a whole turn",
        "Initiative, the enemy's Action, the maneuver, fire in "
        "gun-size order, torpedoes and the End of Turn roll, from a game state the client "
        "sends back each turn. Returns the new state, the winner or draw, and every event. "
        "Without player_action, when the enemy has the initiative, the answer is "
        "result.pending (the initiative and the enemy's Action, the state unchanged) and the "
        "same request with player_action and the same dice finishes the turn.",
        "varies",
        steps.turn,
    ),
    Step(
        "advice",
        "Advise the player's Action",
        "For each Action the player may take from a game state (the one a turn hands back), "
        "the chances of winning, drawing and losing and the expected number of turns, from "
        "seeded games played with the steps' own odds (the enemy on its table, the player "
        "keeping the Action), with a 95% interval; and the best Action. No dice are rolled "
        "for the game itself: the seed drives the sampled games (docs/advice.md).",
        "none (seeded games)",
        advice.advice,
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
    ships=tuple(card.as_dict() for card in CATALOG.values()),
    rulings=RULINGS,
)
