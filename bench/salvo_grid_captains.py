"""SALVO computer captains measured over seeded battles (docs/computer.md).

Two figures, both from the engine's own steps (layout, loot, computer, salvo), in process:

* battles: the hard captain against the standard one, ``--battles`` times (the hard one is
  captain a in even battles, b in odd ones); wins, draws, losses, rounds, and the CPU time
  of every hard call;
* solo: a random, a standard and a hard captain each fire at the same ``--solo`` hidden
  fleets (with their loot) while nothing fires back; the rounds each needs to sink a whole
  fleet.

Every layout, loot and computer choice comes from the dice of the seed ``bench-<n>``, so a
run gives the same figures every time:

    .venv/bin/python bench/salvo_grid_captains.py --battles 1000 --solo 1000

The CPU time of each hard call is ``time.process_time`` around it. The objects alive once
everything is imported are frozen (``gc.freeze``), as the production workers do
(deploy/gunicorn.conf.py): a full pass of Python's cyclic garbage collector over them costs
about 50 ms of CPU, which would land on whichever call happened to set it off. The time the
collector took inside hard calls is reported apart (``hard_call_gc_ms``), with the calls
during which a full pass ran. ``--slowest N`` prints the N slowest hard calls' views.
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.engine.dice import SeededDice  # noqa: E402
from service.engine.resolution import Resolution  # noqa: E402
from service.rulesets.salvo_grid import api, hard  # noqa: E402
from service.rulesets.salvo_grid.computer import ComputerInput, View  # noqa: E402
from service.rulesets.salvo_grid.fleet import (  # noqa: E402
    BOARD,
    LayoutInput,
    LootInput,
    Ocean,
    layout,
    loot,
    names,
)
from service.rulesets.salvo_grid.salvo import Salvo, SalvoInput, Side, salvo  # noqa: E402

OCEAN = api.SalvoGridOceanSchema()
VIEW = api.SalvoGridViewSchema()
SALVO = api.SalvoGridSalvoSchema()
PLACEMENT = api.SalvoGridPlacementSchema(many=True)
MAX_ROUNDS = 100


def dice(seed: str, nonce: int) -> Resolution:
    return Resolution(SeededDice(seed, nonce))


def ocean(seed: str, nonce: int) -> Ocean:
    fleet = PLACEMENT.load(layout(LayoutInput(None), dice(seed, nonce))["fleet"])
    pieces = loot(LootInput(tuple(fleet)), dice(seed, nonce + 1))["loot"]
    loaded: Ocean = OCEAN.load({"fleet": [p.as_dict() for p in fleet], "loot": pieces})
    return loaded


HARD_SECONDS: list[float] = []
HARD_GC: list[float] = []  # CPU seconds the garbage collector took inside each hard call
FULL_PASSES: list[int] = []  # the hard calls (by index) during which a full pass ran
SLOWEST: list[tuple[float, str, View]] = []
_GC = {"started": 0.0, "total": 0.0, "full": 0}


def _collector(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _GC["started"] = time.process_time()
    else:
        _GC["total"] += time.process_time() - _GC["started"]
        _GC["full"] += info["generation"] == 2


def aim(level: str, own: Ocean, view: View, res: Resolution, label: str = "") -> Salvo:
    collected, full = _GC["total"], _GC["full"]
    started = time.process_time()
    result = hard.captain(hard.LevelledInput(ComputerInput(own, view), level), res)
    if level == "hard":
        spent = time.process_time() - started
        HARD_SECONDS.append(spent)
        HARD_GC.append(_GC["total"] - collected)
        if _GC["full"] > full:
            FULL_PASSES.append(len(HARD_SECONDS) - 1)
        SLOWEST.append((spent, label, view))
        SLOWEST.sort(key=lambda item: -item[0])
        del SLOWEST[20:]
    loaded: Salvo = SALVO.load(result["salvo"])
    return loaded


def random_salvo(own: Ocean, view: View, rng: random.Random) -> Salvo:
    fired = set(view.misses) | set(view.hits) | {sq for _, sqs in view.sunk for sq in sqs}
    fresh = [sq for sq in BOARD if sq not in fired]
    return Salvo(tuple(rng.sample(fresh, min(own.salvo_size(), len(fresh)))))


def battle(number: int) -> dict[str, Any]:
    seed = f"bench-{number}"
    levels = {"a": "hard", "b": "standard"} if number % 2 == 0 else {"a": "standard", "b": "hard"}
    oceans = {"a": ocean(seed, 1), "b": ocean(seed, 3)}
    views = {"a": View(), "b": View()}
    for round_number in range(1, MAX_ROUNDS + 1):
        nonce = 100 + 10 * round_number
        salvos = {
            c: aim(levels[c], oceans[c], views[c], dice(seed, nonce + i), f"{seed} {nonce + i}")
            for i, c in enumerate("ab")
        }
        inp = SalvoInput(Side(oceans["a"], salvos["a"]), Side(oceans["b"], salvos["b"]))
        out = salvo(inp, dice(seed, nonce + 2))
        for c in "ab":
            oceans[c] = OCEAN.load(out[c]["ocean"])
            views[c] = VIEW.load(out[c]["view"])
        if out["game_over"]:
            winner = None if out["draw"] else levels[out["winner"]]
            return {"winner": winner, "rounds": round_number}
    return {"winner": None, "rounds": MAX_ROUNDS}


def solo(number: int, captain: str) -> int:
    """Rounds ``captain`` needs to sink the whole hidden fleet of battle ``number``."""
    seed = f"bench-{number}"
    target, own = ocean(seed, 3), ocean(seed, 1)
    view = View()
    rng = random.Random(seed)
    for round_number in range(1, MAX_ROUNDS + 1):
        nonce = 100 + 10 * round_number
        if captain == "random":
            shots = random_salvo(own, view, rng)
        else:
            shots = aim(captain, own, view, dice(seed, nonce), f"{seed} {nonce} solo")
        out = salvo(SalvoInput(Side(own, shots), Side(target, Salvo())), dice(seed, nonce + 2))
        own, target = OCEAN.load(out["a"]["ocean"]), OCEAN.load(out["b"]["ocean"])
        view = VIEW.load(out["a"]["view"])
        if out["game_over"]:
            return round_number
    return MAX_ROUNDS


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "mean": round(statistics.fmean(ordered), 2),
        "p50": round(ordered[len(ordered) // 2], 2),
        "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2),
        "max": round(ordered[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--solo", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0, help="first battle number")
    parser.add_argument(
        "--captains", default="random,standard,hard", help="the solo captains, by commas"
    )
    parser.add_argument("--slowest", type=int, default=0, help="print the slowest hard calls")
    args = parser.parse_args()
    gc.collect()
    gc.freeze()
    gc.callbacks.append(_collector)
    wall, cpu = time.time(), time.process_time()
    report: dict[str, Any] = {"load_average_at_start": os.getloadavg()}
    if args.battles:
        results = [battle(n) for n in range(args.start, args.start + args.battles)]
        wins = sum(r["winner"] == "hard" for r in results)
        draws = sum(r["winner"] is None for r in results)
        report["battles"] = {
            "battles": len(results),
            "hard_wins": wins,
            "draws": draws,
            "standard_wins": len(results) - wins - draws,
            "hard_win_rate": round(wins / len(results), 4),
            "hard_score": round((wins + draws / 2) / len(results), 4),
            "rounds": summary([r["rounds"] for r in results]),
        }
    if args.solo:
        report["solo_rounds"] = {
            captain: summary([solo(n, captain) for n in range(args.start, args.start + args.solo)])
            for captain in args.captains.split(",")
        }
    if HARD_SECONDS:
        report["hard_call_cpu_ms"] = summary([s * 1000 for s in HARD_SECONDS])
        report["hard_calls"] = len(HARD_SECONDS)
        report["hard_calls_over_20_ms"] = sum(1 for s in HARD_SECONDS if s > 0.020)
        report["hard_call_gc_ms"] = summary([s * 1000 for s in HARD_GC])
        report["hard_calls_with_a_full_collection"] = [
            round(HARD_SECONDS[i] * 1000, 1) for i in FULL_PASSES
        ]
    report["load_average_at_end"] = os.getloadavg()
    report["run_minutes"] = {
        "wall": round((time.time() - wall) / 60, 1),
        "cpu": round((time.process_time() - cpu) / 60, 1),
    }
    print(json.dumps(report, indent=2))
    for spent, label, view in SLOWEST[: args.slowest]:
        told = {"misses": view.misses, "hits": view.hits, "contacts": view.contacts}
        shown = {key: " ".join(names(squares)) for key, squares in told.items()}
        sunk = " ".join(ship for ship, _ in view.sunk)
        print(f"{spent * 1000:.1f} ms  {label}  {shown} sunk: {sunk or 'none'}")


if __name__ == "__main__":
    main()
