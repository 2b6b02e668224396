"""Fleet Action: quick fleet miniatures with D6 dice pools, crew quality and armour saves."""

from __future__ import annotations

from ...engine.ruleset import Ruleset, Step
from . import odds, steps, tables, turn, turn_odds
from .rulings import RULINGS

STEPS = (
    Step(
        name="initiative",
        summary="Roll for initiative",
        description="Both players roll 1d6; a tie rolls again. The winner goes second: the loser "
        "picks and moves the first ship. Supplied dice are read in pairs, player A's die then "
        "player B's, one pair per round; at most 20 rounds are rolled (ruling initiative-ties).",
        dice="1d6 each, again on a tie",
        resolve=steps.initiative,
    ),
    Step(
        name="fire",
        summary="Fire a ship's guns at one target",
        description="Attack dice against the firer's To Hit (crew quality, raised by visibility, "
        "never worse than 6+), then the target rolls one armour save per hit. Each hit that gets "
        "through knocks off one Hull point; an unmodified 6 whose save fails sinks the target "
        "outright. The client gives the range in inches and says whether the target is in line of "
        "sight; the class's gun range is checked. Supplied dice are read as every attack die in "
        "order, then one save die per hit, in the order of the hits (ruling save-order).",
        dice="Attack x 1d6, then 1d6 per hit",
        resolve=steps.fire,
        odds=True,
        exact_odds=odds.fire_odds,
    ),
    Step(
        name="torpedo",
        summary="Fire a ship's torpedoes at one target",
        description='Destroyers and Cruisers only, instead of guns, up to 16": three dice against '
        "To Hit. Torpedo hits ignore armour and each knocks off one Hull point; an unmodified 6 "
        "sinks the target outright. Visibility counts as for guns (ruling visibility-torpedoes).",
        dice="3d6",
        resolve=steps.torpedo,
        odds=True,
        exact_odds=odds.torpedo_odds,
    ),
    Step(
        name="damage",
        summary="Apply lost Hull to a ship",
        description="Hull points lost (and perhaps a catastrophic hit) applied to a ship: its new "
        "state, sunk at zero Hull. No dice.",
        dice="none",
        resolve=steps.damage,
    ),
    Step(
        name="turn",
        summary="Play a turn, one call at a time",
        description="The turn as the text plays it, from a state the client sends back each "
        "call. A call whose state has no first_pick rolls initiative (as the initiative step; "
        "the loser picks first) and says whose pick it is. Each further call resolves one "
        "activation: the ship picked, which moves (moved and turned, as measured, are checked "
        "against its Speed and the 90 degree turn) and fires its guns or its torpedoes at one "
        "target at the range and line of sight measured after its move (as the fire and torpedo "
        "steps, whose dice it rolls), or fires nothing. Each answer hands back result.state "
        "with whose pick is next and which ships have gone; a sunk ship cannot be picked; the "
        "last activation ends the turn and hands back the next turn's state. A pick out of "
        "order is a 422 that says whose pick it is; the game is over when a player has no ship "
        "afloat.",
        dice="2d6 a round for initiative; then the fire or torpedo step's dice",
        resolve=turn.turn,
    ),
    Step(
        name="turn-odds",
        path="turn/odds",
        summary="Odds of a turn's declared fire",
        description="For the attacks the players declare for the rest of a turn, in the order "
        "the ships will go (ruling declared-fire), each ship's chance of being sunk (and sunk "
        "outright by a catastrophic hit), the distribution of the Hull it loses, and each "
        "firer's chance of getting its shot off. Exact, as fractions, while the walk stays "
        f"within {tables.TURN_ODDS_BRANCHES:,} branches (method exact refuses past it); "
        f"otherwise {tables.TURN_ODDS_SAMPLES:,} seeded games (stream fc-fleet-turn-odds-v1 "
        "from the seed and nonce of dice) with a 95% Wilson interval for every share; "
        "result.method says which. Fleet Action has no lasting critical effects.",
        dice="none (seeded games, where not exact)",
        resolve=turn_odds.turn_odds,
    ),
)

RULESET = Ruleset(
    id="fleet-action",
    title="Fleet Action",
    source="Fleet Action quick fleet rules",
    description="Quick fleet miniatures: four ship classes, crews from Green to Elite, pools "
    "of six-sided dice against To Hit, armour saves per hit and catastrophic sixes. "
    "Distances are inches measured on the table by the players.",
    steps=STEPS,
    tables=tables.as_data(),
    ships=tuple(row.as_dict() for row in tables.SHIP_CLASSES.values()),
    rulings=RULINGS,
)
