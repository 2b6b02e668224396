"""SALVO: the two-captain grid game with simultaneous salvos, specials, loot and Elo."""

from __future__ import annotations

from ...engine.ruleset import Ruleset, Step
from . import fleet, hard, heatmap, rating, salvo, tables
from .rulings import RULINGS
from .ships import CATALOG

STEPS = (
    Step(
        name="layout",
        summary="Lay out a fleet, or check one",
        description="Without a fleet: a random legal fleet from the dice (Carrier, Battleship, "
        "Cruiser, Submarine, Destroyer, each among all its legal places). With a fleet: its "
        "check, answered with legal true or false and every fault named (missing or extra ship, "
        "wrong size, repeated square, off the board, diagonal, not in a line, gap, overlap). No "
        "odds: a layout has no table to enumerate.",
        dice="1dN per ship, N = its legal places (none when checking)",
        resolve=fleet.layout,
    ),
    Step(
        name="loot",
        summary="Hide the loot in an ocean",
        description="Seven pieces on the open water of a legal fleet: 3 crates (+1 shot), 2 mines "
        "(-1 shot), 2 radar buoys (a contact), in that order, each among the open squares "
        "left.",
        dice="1dN per piece, N = open squares left",
        resolve=fleet.loot,
    ),
    Step(
        name="salvo",
        summary="Fire one round: both salvos land together",
        description="Both oceans as the app holds them and both salvos in. Every shot, heavy-shell "
        "and depth-charge square resolves against the oceans as they stood before the round, so a "
        "ship sunk this round has already fired. Out, for each captain: what it is told about its "
        "salvo (no ship named until it sinks), what it sees on its own ocean, its ships afloat, "
        "its next salvo size, its new ocean to send back next round and its view of the enemy "
        "ocean (the computer step's input); then the winner or a draw. Illegal salvos get a 422 "
        "naming the fault.",
        dice="1dN per radar buoy found, N = candidate squares",
        resolve=salvo.salvo,
    ),
    Step(
        name="computer",
        summary="The computer captain aims its salvo",
        description="From the computer's own ocean and its view of the enemy's (as the salvo step "
        "returns it): random until a hit; then contacts and squares next to each hit on a "
        "ship not sunk; depth charges and heavy shell on a wounded ship; a dive once its "
        "submarine is hit; never recon or sonar. The salvo comes back ready to send to the "
        "salvo step; the same seed and nonce give the same salvo. level hard: fires where the "
        "heat map says the ships most likely lie, and spends its shell and charges where they "
        "pay most (docs/computer.md).",
        dice="1dN per choice among more squares or areas than it needs",
        resolve=hard.captain,
    ),
    Step(
        name="heatmap",
        summary="Where the rival's ships may lie: the heat map of a view",
        description="From a captain's view of the rival's ocean (as the salvo step hands it back) "
        "and the recon and sonar counts told so far: for every square, the probability that it "
        "holds a ship not yet sunk, over every fleet placement that fits what was told. Exact (a "
        "count of the placements) when the search fits its budget, otherwise a seeded Gibbs "
        "sampler whose seed, chains and sweeps are in the answer. A view that no placement fits "
        "is a 422 that says what cannot be.",
        dice="3d1000 for the sampler's seed when sampled, none when exact",
        resolve=heatmap.heatmap,
    ),
    Step(
        name="rating",
        summary="Rate one finished battle (Elo)",
        description="Both ratings and the result in, both new ratings out: K = 32, every captain "
        "starts at 1000, a draw is half a win, the loser drops what the winner gains (16 between "
        "equals). Forfeits and resignations are rated like any result; battles against the "
        "computer are not rated, so do not send them.",
        dice="none",
        resolve=rating.rating,
    ),
)

RULESET = Ruleset(
    id="salvo-grid",
    title="SALVO",
    source="SALVO rules (two-captain grid game)",
    description="Two captains hide five ships on 10 x 10 oceans and fire at once, one shot "
    "per ship afloat, with a special per ship once a game, loot in the water and Elo "
    "ratings. The service is stateless: the app holds both oceans and sends them each round.",
    steps=STEPS,
    tables=tables.as_data(),
    ships=tuple(CATALOG),
    rulings=RULINGS,
)
