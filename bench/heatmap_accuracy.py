"""How close the SALVO heat map's sampler comes to the truth (docs/computer.md).

For each view of the table in docs/computer.md, the truth is estimated by plain rejection
sampling, written apart from the Gibbs sampler: each ship afloat is drawn uniformly and
independently among its places clear of the misses and sunk ships, and the layout is kept
only if it fits everything told (no overlap, every hit and contact covered, no ship afloat
hit everywhere). Every fitting layout is then exactly equally likely, so the kept layouts'
frequencies converge to the exact heat map, with no chain that could get stuck; the figure
printed with it (``reference_sd``) is the largest standard error over the squares.

Then the sampler at the heat map step's budget (``heatmap.WORK``) is run from ``--seeds``
seeds and the largest per-square error against the reference is reported, with the CPU time
(``time.process_time``) of each run:

    nice -n 10 .venv/bin/python bench/heatmap_accuracy.py --draws 4000000 --seeds 5

``--cache FILE`` keeps the references (they take a while) between runs. Not part of
``make test``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.rulesets.salvo_grid import heatmap as hm  # noqa: E402
from service.rulesets.salvo_grid.fleet import parse  # noqa: E402


def squares(*text: str) -> tuple[tuple[int, int], ...]:
    return tuple(parse(sq) for sq in text)


VIEWS: dict[str, hm.Told] = {
    "nothing known": hm.Told(),
    "one hit, three misses": hm.Told(hits=squares("E5"), misses=squares("E4", "D5", "F5")),
    "three hits apart": hm.Told(hits=squares("C3", "H4", "E8")),
    "a pair of hits against a miss, a contact": hm.Told(
        hits=squares("E5", "F5"), misses=squares("D5"), contacts=squares("B8")
    ),
    "three hits in a line against a miss": hm.Told(
        hits=squares("E5", "F5", "G5"), misses=squares("D5")
    ),
}


def reference(told: hm.Told, draws: int, seed: int) -> tuple[list[float], int]:
    """Rejection sampling: the share of fitting layouts with a ship afloat on each square."""
    prob = hm.problem(told)
    rng = random.Random(seed)
    places = prob.candidates
    required = prob.required
    n = len(places)
    counts = [0] * (prob.board.columns * prob.board.rows)
    tally: dict[int, int] = {}
    kept = 0
    rnd = rng.random
    sizes = [len(p) for p in places]
    for _ in range(draws):
        occ = 0
        for k in range(n):
            m = places[k][int(rnd() * sizes[k])]
            if occ & m:
                break
            occ |= m
        else:
            if required & ~occ:
                continue
            kept += 1
            tally[occ] = tally.get(occ, 0) + 1
    for occ, times in tally.items():
        while occ:
            low = occ & -occ
            counts[low.bit_length() - 1] += times
            occ ^= low
    return [c / kept for c in counts], kept


def error(got: list[float], want: list[float]) -> float:
    return max(abs(a - b) for a, b in zip(got, want, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--draws", type=int, default=4_000_000)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--cache", default="")
    parser.add_argument("--only", default="", help="views whose name contains this")
    args = parser.parse_args()
    cache: dict[str, Any] = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            cache = json.load(f)
    report: dict[str, Any] = {}
    for label, told in VIEWS.items():
        if args.only and args.only not in label:
            continue
        key = f"{label}|{args.draws}"
        if key not in cache:
            want, kept = reference(told, args.draws, 20261201)
            cache[key] = {"p": want, "kept": kept}
            if args.cache:
                with open(args.cache, "w") as f:
                    json.dump(cache, f)
        want, kept = cache[key]["p"], cache[key]["kept"]
        sd = max(math.sqrt(p * (1 - p) / kept) for p in want)
        errors, cpu, samples = [], [], []
        for seed in range(1, args.seeds + 1):
            started = time.process_time()
            found = hm.sample(hm.problem(told), seed * 7919, work=hm.WORK)
            cpu.append((time.process_time() - started) * 1000)
            errors.append(error(found.probabilities(), want))
            assert found.sampler is not None
            samples.append(found.sampler["samples"])
        report[label] = {
            "reference_kept": kept,
            "reference_sd": round(sd, 4),
            "error_min": round(min(errors), 3),
            "error_max": round(max(errors), 3),
            "errors": [round(e, 3) for e in errors],
            "samples": samples,
            "cpu_ms_max": round(max(cpu), 1),
            "cpu_ms_mean": round(sum(cpu) / len(cpu), 1),
        }
        print(label, json.dumps(report[label]), flush=True)
    print(json.dumps({"load_average": os.getloadavg()[0], "views": report}, indent=2))


if __name__ == "__main__":
    main()
