"""Dreadnought: WWI fleet miniatures with three-dice gunnery (2D8 + gunner die)."""

from __future__ import annotations

from ...engine.ruleset import Ruleset, Step
from . import odds, steps, tables, turn, turn_odds
from .rulings import RULINGS
from .ships import CATALOG

STEPS = (
    Step(
        name="range",
        summary="Find the weapon row and range band",
        description="A calibre, a target class and a distance in inches: the Weapons Effect row "
        '(7"-9" guns have one row against light targets and one against heavy), whether the gun '
        "may fire at that class, and the band (short, medium, long) or out of range. No dice.",
        dice="none",
        resolve=steps.range_,
    ),
    Step(
        name="fire",
        summary="Fire one battery at one target",
        description="2D8 + the gunner die (D10 for German and good British crews, D8 otherwise), "
        "with the to-hit modifiers and the barrels bonus, against the target's to-hit score (-2 "
        "at short range, +2 at long). On a hit, damage from the same three dice (Low, Medium, "
        "High) plus the barrels bonus, less the target's damage reduction; against an Armoured "
        "Cruiser or heavier, doubles or triples roll on the Critical Hits table.",
        dice="2d8 + 1d10 or 1d8 (+1d6 or 2d6 for a critical)",
        resolve=steps.fire,
        odds=True,
        exact_odds=odds.fire_odds,
    ),
    Step(
        name="critical",
        summary="Roll on the Critical Hits table",
        description="Triples: Magazine Hit; double 8: Turret Explodes (two turrets or fewer: 1-3 "
        "no effect; then the blow-up roll for British battleships, German battlecruisers 1 in D6, "
        "British battlecruisers 2 in D6); double 7: Director Destroyed; double 6: Bridge "
        "Destroyed; double 5: Rudder Destroyed, jammed left, right or straight ahead.",
        dice="up to 2d6",
        resolve=steps.critical,
        odds=True,
        exact_odds=odds.critical_odds,
    ),
    Step(
        name="torpedo",
        summary="Resolve a torpedo attack",
        description='Up to 10" from the firing point: 2D6 + the gunner die, +1 per torpedo beyond '
        "the first, against the target's to-hit score; All damage plus the same bonus, less the "
        'damage reduction, and criticals as for guns. Beyond 10" the torpedoes miss.',
        dice="2d6 + 1d10 or 1d8 (+1d6 or 2d6 for a critical)",
        resolve=steps.torpedo,
        odds=True,
        exact_odds=odds.torpedo_odds,
    ),
    Step(
        name="damage",
        summary="Mark damage on a record card",
        description="Marks points off the ship's damage boxes and applies a critical effect: the "
        "damage reduction, speed and secondary batteries wear down with the boxes left; the "
        "ship breaks up when none is left. No dice.",
        dice="none",
        resolve=steps.damage,
    ),
    Step(
        name="rudder",
        summary="Try to free a jammed rudder",
        description="1D6 each turn: 5 or 6 frees the rudder.",
        dice="1d6",
        resolve=steps.rudder,
        odds=True,
        exact_odds=odds.rudder_odds,
    ),
    Step(
        name="turn",
        summary="Play a whole turn of an action",
        description="From the state of every ship (card, damage, lasting criticals, side, the "
        "plot written last turn and the targets fired at before) and the turn's declarations "
        "(formation, an enemy within 6\", orders, turned or not, each battery's target and "
        "distance after movement, torpedo salvoes with the distance from their firing point): "
        "the orders each ship moves on, every turn-level to-hit modifier worked out with its "
        "source (more than one ship firing at the target, not under fire, first time at this "
        "target, firer or target turned, director down), every battery and torpedo fired "
        "against the ships as the turn began, all damage and criticals applied together, the "
        "rudder repairs rolled and the bridges counted down. result.state is the next "
        "request's state, as it is.",
        dice="varies: per battery 2d8 + gunner die, per torpedo salvo 2d6 + gunner die, each "
        "with its critical dice; 1d6 per jammed rudder",
        resolve=turn.turn,
    ),
    Step(
        name="turn-odds",
        path="turn/odds",
        summary="Odds: a whole turn of an action",
        description="For the turn's own request (DreadnoughtTurnRequest, the same body): each "
        "ship's chance of being sunk, the distribution of the boxes marked off it, and the "
        "chance of each lasting critical. Exact (fractions) while combining the throws takes "
        f"at most {turn_odds.BRANCH_LIMIT:,} branches; past that, {turn_odds.GAMES} seeded "
        "games (the dice's seed and nonce), each share with a 95% interval. result.method "
        "says which. dice, if sent, must be {seed, nonce}: supplied and sealed dice are a 422, "
        "as no die of the game is rolled; left out, a fresh seed is drawn and returned. prev "
        "chains the answer's receipt as the turn's does.",
        dice="none: the seed drives the sampled games, when there are any",
        resolve=turn_odds.turn_odds,
    ),
)

RULESET = Ruleset(
    id="dreadnought",
    title="Dreadnought",
    source="WWI fleet miniatures rules after Silent Death (rule text of February 2007)",
    description="WWI fleet actions on the table top: every battery of one calibre fires as "
    "one, rolling 2D8 and a gunner die that decide both the hit and the damage; doubles "
    "and triples against capital ships are critical hits. Distances are inches sent by the "
    "client; the service moves nothing.",
    steps=STEPS,
    tables=tables.as_data(),
    ships=(
        *({"kind": "class", **row.as_dict()} for row in tables.SHIP_CLASSES),
        *({"kind": "record card", **card.listed()} for card in CATALOG.values()),
    ),
    rulings=RULINGS,
)
