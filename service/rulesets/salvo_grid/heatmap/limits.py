"""The heat map's work limits: how much work the exact count, the listing of the ways and
the samplers may each do, and the sampler's batches, checkpoints and seed dice.

Work is counted in places looked at (``NODE_COST`` a node of the search); the request's
budget turns it into units of CPU (funds.py)."""

from __future__ import annotations

import math

EXACT_WORK = 20_000  # the exact count's budget: places looked at, and NODE_COST a node


NODE_COST = 12  # a node of the search costs about as much as looking at this many places


WORK = 220_000  # the sampler's: places looked at over all its draws (about 30 ms)


GRACE = 4  # with no fitting layout drawn at WORK, the sampler goes on to GRACE times it


BATCHES = 10  # the draws' batches, whose spread gives the margin


LIST_WORK = 220_000  # listing the ways of meeting what was told, before sampling by strata


FORESEEN = 1.0  # the share of the listing's budget a listing may be foreseen to take


# A listing stops early, past EARLY of its budget, once its work so far over the share of
# the tree it has walked (each branch an equal share of its node's) is PROJECTED budgets,
# and past LATE of it once that is past the budget itself.
EARLY = 0.25


PROJECTED = 1.2


LATE = 0.5


PROBES = 16  # paths down the tree that foresee the listing's work


PROBE_COST = 200  # a path's work


GOLDEN = (math.sqrt(5) - 1) / 2  # the step between a batch's points along the ways


STOP = 0.03  # the sampler stops at a checkpoint once its margin is under this


CHECKS = 2  # a checkpoint at half the sampler's work (the other is its end)


CHECK_COST = 15_000  # a checkpoint's work: the margin worked out from the batches


DRAW_COST = 4  # a stratified draw's own work, besides placing its ships and counting them


SEED_DICE = 3


SEED_SIDES = 1000
