"""The SALVO heat map: where the rival's ships afloat may lie, from everything told.

For every square, the probability that it holds a ship not yet sunk, over the fleet
placements consistent with what a captain has been told of the rival's ocean:

* a miss is open water; a sunk ship lies exactly where it was shown;
* every hit on a ship afloat, and every contact, is a square of a ship afloat;
* a ship afloat is not hit on every one of its squares (it would have sunk);
* a recon or sonar count is the number of ship squares in its area not yet hit when it was
  counted: the ship squares in the area are that count plus the area's squares then known
  hit (``Count.hit``).

Every consistent placement is equally likely (the rules give the rival's layout no
preference). The engine takes the board size and the fleet as parameters, so a test can
check it against full enumeration on a small board.

The exact count and the samplers walk one search tree (docs/computer.md, "How it is worked
out"): cover the square that must hold a ship with the fewest ways, then the tightest
count, then place the free ships anywhere clear. **Exact** when the tree is walked within
``EXACT_WORK``, or else when every layout is counted down the product's states within the
request's budget (``_enumerated``: the ships placed largest first, only where the counts
and the clusters of squares to cover can still be met, the last ship's places counted at
once), or every way of meeting what was told (listed with bitsets, when probes foresee it
fits) leaves at most one ship free. **Sampled** otherwise: by exact draws from the same
product when enough of its trial draws are kept; else by strata of those
ways when they are few (a listing foreseen within ``SHORT`` of its budget); else by exact
draws (``_Product``: each ship's places grouped by what they add to the counts and the
squares to cover, the ways of completing each state counted, layouts drawn from that and
kept when no two ships overlap, each kept one exactly uniform over the layouts that fit);
else by strata of a longer listing; else down the tree, each draw weighted by one over its
chance and counted ship by ship over every place the ship could take given the others
(Rao-Blackwell). The draws go round-robin into batches (by strata and down the tree, each
batch's spread evenly from its own start); ``margin`` is three standard errors of the least
certain square, from the batches' spread, and the draws stop at half the budget once it is
under ``STOP``. The random numbers are ``random.Random(seed).random()``, an index among n
choices ``floor(u * n)`` (a ship's place among many free ones: a line ``floor(u * lines)``
tried until free); the seed comes from three d1000 rolled like any die, so the answer is

The package, one module a part (each imports only those above it):

* ``limits``: the work each part may do; ``board``: what was told, the board, the problem,
  the heat; ``told``: checking what was told into a problem;
* ``tree``: the search tree and the exact count; ``funds``: the request's budget;
* ``bits``: the bitsets and a draw down the tree; ``ways``: the listing of the ways;
* ``product``: the product, every layout counted down it, its exact draws;
* ``samplers``: choosing a sampler and drawing; ``step``: the heat and the step's answer.

Re-exported here: what the step, the hard captain and the tests use (``hm.<name>``).
"""

from __future__ import annotations

from .bits import _Bits
from .board import GAME, Board, Count, Heat, SearchLimit, Told
from .limits import LIST_WORK, STOP, WORK
from .product import _product, _product_sample
from .samplers import _bit_stratified, _bit_tree_sample, _Plan, _sampled, sample
from .step import HeatmapInput, answer, heat, heatmap, told_of
from .told import problem
from .tree import exact
from .ways import counted, ways_told

__all__ = [
    "GAME",
    "LIST_WORK",
    "STOP",
    "WORK",
    "Board",
    "Count",
    "Heat",
    "HeatmapInput",
    "SearchLimit",
    "Told",
    "_Bits",
    "_Plan",
    "_bit_stratified",
    "_bit_tree_sample",
    "_product",
    "_product_sample",
    "_sampled",
    "answer",
    "counted",
    "exact",
    "heat",
    "heatmap",
    "problem",
    "sample",
    "told_of",
    "ways_told",
]
