"""How close the SALVO heat map comes to the truth, and how honest its margin is
(docs/computer.md).

Three sets of views:

* ``--kinds``: the named kinds of view of the table in docs/computer.md;
* ``--battles N``: views from N real battles of the computer captains (hard against
  standard, seeds ``bench-<n>`` from ``--start``), both captains' views after rounds 1, 2, 3,
  4, 6, 8 and 10, each with a sonar count (a random row or column) and a recon count (the
  3 x 3 squares around a random square) told about half the time, counted on the rival's
  real fleet as the salvo step counts them;
* ``--random N``: views of random fleets under 3 to 30 random shots, a contact or two (a
  square of a ship not hit, as a radar buoy shows it) about half the time, and the same
  counts;
* ``--heavy N``: the heavy views of real fleets ``heavy-0`` to ``heavy-<N-1>``
  (tests/heat_views.py: 4 to 10 hits, contacts, a sonar and a recon count).

For each view the truth is, in this order: the exact count with a budget 50 times the step's
(``--exact-work``); else every way of meeting what was told listed within that budget and
counted, when each leaves at most one ship free; else a long run of the exact draws
(``--long`` times the step's budget, with no early stop), each kept layout exactly uniform
over the layouts that fit; else (no exact draws for that view) a long run by strata, or
down the tree when the ways cannot be listed. A view with no hit and no contact is also
checked against plain rejection sampling written apart from the engine (``--rejection``
draws: every ship uniformly and independently among its places clear of the misses and
sunk ships, the layout kept only when no two overlap and every count holds), when it keeps
enough.

Then the heat map step (``heatmap.heat``, at its budget, seeds from ``--seeds`` different
dice) answers each view, and the bench reports, per way of working it out: how many views,
the margin it states, its real error (the largest gap on any square from the truth), how
often that error is within the margin, and the CPU time (``time.process_time``) of the
whole step (what is alive before each call frozen for the garbage collector, as the
production workers freeze the app's objects: a full pass over the bench's own objects would
land on whichever call set it off). A view the step answers exactly is not compared again:
its error is 0 (the tests hold the exact count to full enumeration).

    nice -n 10 .venv/bin/python bench/heatmap_accuracy.py --kinds --battles 16 --random 40

(about 16 minutes at a load of 10 on the 2 shared cores). Each view's answers go to stderr
as they come; ``--views FILE`` writes every view's figures to FILE as JSON lines. Not part
of ``make test``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import salvo_grid_captains as captains  # noqa: E402

from service.engine.dice import SeededDice  # noqa: E402
from service.engine.resolution import Resolution  # noqa: E402
from service.rulesets.salvo_grid import heatmap as hm  # noqa: E402
from service.rulesets.salvo_grid.fleet import Ocean, parse  # noqa: E402
from service.rulesets.salvo_grid.salvo import SalvoInput, Side, salvo  # noqa: E402

Square = tuple[int, int]
STAGES = (1, 2, 3, 4, 6, 8, 10)


def squares(*text: str) -> tuple[Square, ...]:
    return tuple(parse(sq) for sq in text)


ROW_5 = tuple((c, 4) for c in range(10))
KINDS: dict[str, hm.Told] = {
    "nothing known": hm.Told(),
    "one hit, three misses": hm.Told(hits=squares("E5"), misses=squares("E4", "D5", "F5")),
    "three hits apart": hm.Told(hits=squares("C3", "H4", "E8")),
    "a pair of hits against a miss, a contact": hm.Told(
        hits=squares("E5", "F5"), misses=squares("D5"), contacts=squares("B8")
    ),
    "three hits in a line against a miss": hm.Told(
        hits=squares("E5", "F5", "G5"), misses=squares("D5")
    ),
    "the audit's T of five hits": hm.Told(
        misses=squares("F1", "E3", "C4", "C5", "C6", "D6", "C7", "G8", "B10", "C10"),
        hits=squares("E8", "E9", "D10", "E10", "F10"),
    ),
    "a sonar count of 3 in row 5": hm.Told(
        misses=squares("B2", "H7"), counts=(hm.Count(ROW_5, 3, (), "cruiser"),)
    ),
}


# --- views ----------------------------------------------------------------------------------


def counts_of(rng: random.Random, fleet: set[Square], shown: set[Square]) -> tuple[hm.Count, ...]:
    """A sonar row or column and a recon block, each about half the time, counted on the
    rival's fleet: its squares in the area not yet shown hit."""
    out = []
    if rng.random() < 0.5:
        line = rng.randrange(10)
        if rng.random() < 0.5:
            area = tuple((c, line) for c in range(10))
        else:
            area = tuple((line, r) for r in range(10))
        out.append(("cruiser", area))
    if rng.random() < 0.5:
        c0, r0 = rng.randrange(10), rng.randrange(10)
        area = tuple(
            (c0 + dc, r0 + dr)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if 0 <= c0 + dc < 10 and 0 <= r0 + dr < 10
        )
        out.append(("carrier", area))
    counts = []
    for ship, area in out:
        hit = tuple(sq for sq in area if sq in shown)
        counts.append(hm.Count(area, sum(sq in fleet for sq in area) - len(hit), hit, ship))
    return tuple(counts)


def fleet_squares(ocean: Ocean) -> set[Square]:
    return {sq for placement in ocean.fleet for sq in placement.squares}


def told_with_counts(view: Any, rival: Ocean, rng: random.Random) -> hm.Told:
    shown = set(view.hits) | {sq for _, sqs in view.sunk for sq in sqs}
    counts = counts_of(rng, fleet_squares(rival), shown)
    return hm.told_of(view, counts)


def battle_views(first: int, battles: int, rng: random.Random) -> Iterator[tuple[str, hm.Told]]:
    """Both captains' views after each stage of real battles, with counts."""
    for number in range(first, first + battles):
        seed = f"bench-{number}"
        hard_first = number % 2 == 0
        levels = {"a": "hard", "b": "standard"} if hard_first else {"a": "standard", "b": "hard"}
        oceans = {"a": captains.ocean(seed, 1), "b": captains.ocean(seed, 3)}
        views = {"a": captains.View(), "b": captains.View()}
        for round_number in range(1, max(STAGES) + 1):
            nonce = 100 + 10 * round_number
            salvos = {
                c: captains.aim(levels[c], oceans[c], views[c], captains.dice(seed, nonce + i))
                for i, c in enumerate("ab")
            }
            inp = SalvoInput(Side(oceans["a"], salvos["a"]), Side(oceans["b"], salvos["b"]))
            out = salvo(inp, captains.dice(seed, nonce + 2))
            for c in "ab":
                oceans[c] = captains.OCEAN.load(out[c]["ocean"])
                views[c] = captains.VIEW.load(out[c]["view"])
            if out["game_over"]:
                break
            if round_number in STAGES:
                for c, rival in (("a", "b"), ("b", "a")):
                    told = told_with_counts(views[c], oceans[rival], rng)
                    yield f"{seed} round {round_number} {levels[c]}", told


def random_views(count: int, rng: random.Random) -> Iterator[tuple[str, hm.Told]]:
    """Random fleets under random shots, sometimes a contact or two, and counts."""
    for number in range(count):
        ocean = captains.ocean(f"random-{number}", 1)
        fleet = {p.ship: set(p.squares) for p in ocean.fleet}
        shots = set(rng.sample([(c, r) for c in range(10) for r in range(10)], rng.randint(3, 30)))
        every = set().union(*fleet.values())
        sunk = tuple(
            (ship, tuple(sorted(where))) for ship, where in fleet.items() if where <= shots
        )
        sunk_squares = {sq for _, sqs in sunk for sq in sqs}
        if len(sunk) == len(fleet):
            continue
        hits = tuple(sorted(shots & every - sunk_squares))
        misses = tuple(sorted(shots - every))
        contacts: tuple[Square, ...] = ()
        if rng.random() < 0.5:
            hidden = sorted(every - shots)
            contacts = tuple(rng.sample(hidden, min(len(hidden), rng.randint(1, 2))))
        shown = set(hits) | sunk_squares
        counts = counts_of(rng, every, shown)
        yield f"random-{number}", hm.Told(misses, hits, contacts, sunk, counts)


def heavy_views(count: int) -> Iterator[tuple[str, hm.Told]]:
    """The generated heavy views of real fleets, read as the step reads them."""
    from service.rulesets.salvo_grid.api import SalvoGridHeatmapInputs
    from tests.heat_views import view_at

    for number in range(count):
        loaded = SalvoGridHeatmapInputs().load(view_at(f"heavy-{number}"))
        yield f"heavy-{number}", hm.told_of(loaded["view"], tuple(loaded["counts"]))


# --- the truth ------------------------------------------------------------------------------


def truth(told: hm.Told, args: argparse.Namespace) -> tuple[list[float], str, float]:
    """The true heat (or as near as a long run gets), how it was found, and how far off it
    can itself be (0 when exact)."""
    prob = hm.problem(told)
    found = hm.exact(prob, args.exact_work)
    if found is not None:
        return found.probabilities(), "exact count", 0.0
    bits = hm._Bits(prob)
    listed, _ = hm.ways_told(prob, bits, args.exact_work)
    if listed is not None:
        found = hm.counted(prob, bits, listed)
        if found is not None:
            return found.probabilities(), "exact count of the ways", 0.0
    stop, hm.STOP = hm.STOP, 0.0
    try:
        product, _ = hm._product(prob, bits, 10 * hm.WORK)
        seed = 987_654_321
        if product is not None:
            found = hm._product_sample(prob, bits, product, seed, args.long * hm.WORK)
            how = "long run of exact draws"
        else:
            listed, _ = hm.ways_told(prob, bits, args.exact_work)
            if listed is None:
                found = hm._bit_tree_sample(prob, seed, args.long * hm.WORK, bits)
                how = "long run down the tree"
            else:
                found = hm._bit_stratified(prob, listed, seed, args.long * hm.WORK, bits)
                how = "long run by strata"
    finally:
        hm.STOP = stop
    return found.probabilities(), how, found.margin


def rejection(told: hm.Told, draws: int, seed: int) -> tuple[list[float], int]:
    """Plain rejection sampling, written apart from the samplers: every ship uniformly and
    independently among its places clear of the misses and sunk ships; a layout kept when no
    two overlap, every hit and contact is covered and every count holds."""
    prob = hm.problem(told)
    rng = random.Random(seed)
    rnd = rng.random
    places = prob.candidates
    sizes = [len(p) for p in places]
    areas = prob.areas
    counts = [0] * (prob.board.columns * prob.board.rows)
    tally: dict[int, int] = {}
    kept = 0
    for _ in range(draws):
        occ = 0
        for k, size in enumerate(sizes):
            m = places[k][int(rnd() * size)]
            if occ & m:
                break
            occ |= m
        else:
            if prob.required & ~occ:
                continue
            if any((occ & area).bit_count() != need for area, need in areas):
                continue
            kept += 1
            tally[occ] = tally.get(occ, 0) + 1
    for occ, times in tally.items():
        while occ:
            low = occ & -occ
            counts[low.bit_length() - 1] += times
            occ ^= low
    return [c / kept if kept else 0.0 for c in counts], kept


def error(got: list[float], want: list[float]) -> float:
    return max(abs(a - b) for a, b in zip(got, want, strict=True))


# --- the report -----------------------------------------------------------------------------


def spread(values: list[float], digits: int = 3) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}
    return {
        "median": round(statistics.median(ordered), digits),
        "p90": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))], digits),
        "max": round(ordered[-1], digits),
    }


def measure(label: str, told: hm.Told, args: argparse.Namespace) -> dict[str, Any]:
    """The step's answers from ``--seeds`` dice, and how far each is from the truth (an
    exact answer is the truth: the tests hold the exact count to full enumeration)."""
    runs = []
    for seed in range(1, args.seeds + 1):
        res = Resolution(SeededDice(f"accuracy-{seed}", 1))
        gc.collect()  # what is alive before the call is frozen, as the workers freeze theirs
        gc.freeze()
        started = time.process_time()
        found = hm.heat(told, res)
        cpu = (time.process_time() - started) * 1000
        how = found.method if found.sampler is None else found.sampler["method"]
        runs.append((how, found, cpu))
    row: dict[str, Any] = {
        "view": label,
        "hits": len(told.hits),
        "contacts": len(told.contacts),
        "counts": len(told.counts),
        "sunk": len(told.sunk),
        "runs": [],
    }
    want: list[float] = []
    if any(found.method != "exact" for _, found, _ in runs):
        want, how, sd = truth(told, args)
        row["truth"], row["truth_margin"] = how, round(sd, 4)
        if not told.hits and not told.contacts and args.rejection:
            plain, kept = rejection(told, args.rejection, 20261201)
            if kept >= 2000:
                row["rejection_kept"] = kept
                row["rejection_gap"] = round(error(plain, want), 4)
    for how, found, cpu in runs:
        gap = error(found.probabilities(), want) if want else 0.0
        row["runs"].append(
            {
                "how": how,
                "margin": round(found.margin, 4),
                "error": round(gap, 4),
                "cpu_ms": round(cpu, 1),
            }
        )
    return row


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    by: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        for run in row["runs"]:
            by.setdefault(run["how"], []).append(run)
    out: dict[str, Any] = {}
    for how, runs in sorted(by.items()):
        out[how] = {
            "runs": len(runs),
            "margin": spread([r["margin"] for r in runs]),
            "error": spread([r["error"] for r in runs]),
            "within_margin": round(sum(r["error"] <= r["margin"] for r in runs) / len(runs), 3),
            "over_0.05": sum(r["error"] > 0.05 for r in runs),
            "cpu_ms": spread([r["cpu_ms"] for r in runs], 1),
        }
    every = [run for row in rows for run in row["runs"]]
    out["all"] = {
        "views": len(rows),
        "runs": len(every),
        "error": spread([r["error"] for r in every]),
        "margin_over_0.05": sum(r["margin"] > 0.05 for r in every),
        "error_over_0.05": sum(r["error"] > 0.05 for r in every),
        "within_margin": round(sum(r["error"] <= r["margin"] for r in every) / len(every), 3),
        "cpu_ms": spread([r["cpu_ms"] for r in every], 1),
        "cpu_over_50_ms": sum(r["cpu_ms"] > 50 for r in every),
    }
    gaps = [row["rejection_gap"] for row in rows if "rejection_gap" in row]
    if gaps:
        out["truth_against_plain_rejection"] = {"views": len(gaps), "gap": spread(gaps, 4)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kinds", action="store_true", help="the named kinds of view")
    parser.add_argument("--battles", type=int, default=0)
    parser.add_argument("--start", type=int, default=2000, help="the first battle's number")
    parser.add_argument("--random", type=int, default=0)
    parser.add_argument("--heavy", type=int, default=0, help="heavy views of real fleets")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--long", type=int, default=20, help="the long run, in budgets")
    parser.add_argument("--exact-work", type=int, default=1_000_000)
    parser.add_argument("--rejection", type=int, default=1_000_000)
    parser.add_argument("--views", default="", help="a file for every view's figures")
    args = parser.parse_args()
    rng = random.Random(20261201)
    sets: dict[str, list[tuple[str, hm.Told]]] = {}
    if args.kinds:
        sets["kinds"] = list(KINDS.items())
    if args.battles:
        sets["battles"] = list(battle_views(args.start, args.battles, rng))
    if args.random:
        sets["random"] = list(random_views(args.random, rng))
    if args.heavy:
        sets["heavy"] = list(heavy_views(args.heavy))
    report: dict[str, Any] = {"load_average_at_start": os.getloadavg()[0]}
    lines: list[str] = []
    for name, views in sets.items():
        rows = []
        for label, told in views:
            row = measure(label, told, args)
            rows.append(row)
            lines.append(json.dumps(row))
            print(label, json.dumps(row["runs"]), file=sys.stderr, flush=True)
        report[name] = summarise(rows)
    if args.views:
        Path(args.views).write_text("\n".join(lines) + "\n")
    report["load_average_at_end"] = os.getloadavg()[0]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
