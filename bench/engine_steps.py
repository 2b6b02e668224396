"""CPU of the engine alone for the composite steps: from the validated request to the answer.

    .venv/bin/python bench/engine_steps.py                      # every case, a table
    .venv/bin/python bench/engine_steps.py --only salvo-grid    # the cases whose name has it
    .venv/bin/python bench/engine_steps.py --profile turn       # cProfile of one case
    .venv/bin/python bench/engine_steps.py --digest             # a digest of many answers

Each case is a step's documented request example, loaded once by the step's own inputs
schema (the HTTP layer's part, not timed); what is timed is what a request then runs: the
readings in force, the step's ``build``, ``run_step`` with a fresh copy of the example's
dice, and the answer document's JSON (orjson, the bytes the service writes). The figure is
the least CPU per call of several batches (``time.process_time()``, this process only), so
other work on the machine moves it little. ``--digest`` answers each case for 300 seeds and
prints a SHA-256 of each case's answers: it must not change when the engine is made cheaper.
Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import os
import pstats
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.engine import dice as engine_dice  # noqa: E402
from service.engine.ruleset import Ruleset, run_step  # noqa: E402
from service.http.endpoints.steps import StepHTTP, step_inputs  # noqa: E402


@dataclass(frozen=True)
class Case:
    name: str
    module: str  # the ruleset's api module
    step: str


CASES = (
    Case("salvo-grid-round", "service.rulesets.salvo_grid.api", "salvo"),
    Case("turn", "service.rulesets.salvo_solo.api", "turn"),
    Case("attack", "service.rulesets.salvo_solo.api", "attack"),
    Case("dreadnought-turn", "service.rulesets.dreadnought.api", "turn"),
    Case("fleet-action-turn", "service.rulesets.fleet_action.api", "turn"),
)


def _prepared(case: Case) -> tuple[Ruleset, StepHTTP, dict[str, Any], dict[str, Any]]:
    module = __import__(case.module, fromlist=["STEPS", "RULESET"])
    spec = next(s for s in module.STEPS if s.name == case.step)
    ruleset = module.RULESET
    example = dict(spec.example)
    dice = example.get("dice") or {"seed": "bench", "nonce": 0}
    args = spec.inputs().load(step_inputs(example))
    return ruleset, spec, args, dice


def runner(case: Case, seed: str | None = None) -> Callable[[], bytes]:
    """One request's engine part, ready to call again and again."""
    ruleset, spec, args, dice = _prepared(case)
    step = ruleset.step(spec.name)
    if seed is not None:
        dice = {"seed": seed, "nonce": 0}

    def fresh() -> engine_dice.DiceSource:
        if "values" in dice:
            return engine_dice.SuppliedDice(list(dice["values"]))
        return engine_dice.SeededDice(dice["seed"], dice.get("nonce", 0))

    def once() -> bytes:
        readings = ruleset.readings_in_force(None)
        envelope = run_step(ruleset.id, step, spec.build(args), fresh(), readings)
        return orjson.dumps(envelope)

    return once


def frozen() -> None:
    """Keep what is built so far out of the collector's walks, as the server does before it
    forks its workers (deploy/gunicorn.conf.py)."""
    gc.collect()
    gc.freeze()


def whole(case: Case) -> Callable[[], Any]:
    """The whole request of ``case``, as bench/inprocess.py sends it."""
    from bench import inprocess

    cases = tuple(c for c in inprocess.CASES if c.name == case.name)
    service, bare, prepared = inprocess.requests(cases)
    client = bare if case.name == "bare" else service
    request = prepared[case.name]
    return lambda: client.call(*request)


def least_us(call: Callable[[], Any], batches: int, seconds: float) -> float:
    start = time.process_time()
    call()
    one = max(time.process_time() - start, 1e-6)
    calls = max(20, int(seconds / one))
    best = float("inf")
    for _ in range(batches):
        start = time.process_time()
        for _ in range(calls):
            call()
        best = min(best, (time.process_time() - start) / calls)
    return best * 1e6


def digest(case: Case, seeds: int) -> str:
    out = hashlib.sha256()
    for number in range(seeds):
        try:
            out.update(runner(case, f"digest-{number}")())
        except Exception as error:  # a refusal is an answer too
            out.update(f"{type(error).__name__}: {error}".encode())
    return out.hexdigest()


def instrument(state: str) -> None:
    """Under ``valgrind --tool=callgrind --instr-atstart=no``, count only the calls."""
    if os.environ.get("ENGINE_STEPS_CALLGRIND"):
        subprocess.run(
            ["callgrind_control", "--instr=" + state, str(os.getpid())],
            check=True,
            capture_output=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="", help="a case's name, or text some names hold")
    parser.add_argument("--batches", type=int, default=15)
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument(
        "--whole",
        action="store_true",
        help="with --repeat: the whole request instead, a raw WSGI call of the app "
        "(the cases bench/inprocess.py has, or bare for its bare route)",
    )
    parser.add_argument("--profile", metavar="CASE")
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--digest", action="store_true")
    parser.add_argument(
        "--repeat",
        type=int,
        metavar="N",
        help="only call each case N times after a warm-up (count instructions of two runs, "
        "N and 0, under valgrind --tool=callgrind; the difference over N is one call's)",
    )
    args = parser.parse_args()
    import service.rulesets  # noqa: F401  (every ruleset, as the service imports them)

    exact = tuple(case for case in CASES if args.only == case.name)
    cases = exact or tuple(case for case in CASES if args.only in case.name)
    if args.whole:
        cases = (Case(args.only, "", ""),)
    if args.digest:
        for case in cases:
            print(case.name, digest(case, 300))
        return 0
    if args.repeat is not None:
        for case in cases:
            once = whole(case) if args.whole else runner(case)
            for _ in range(20):
                once()
            frozen()
            instrument("on")
            for _ in range(args.repeat):
                once()
            instrument("off")
        return 0
    if args.profile:
        once = runner(next(case for case in CASES if case.name == args.profile))
        once()
        frozen()
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.calls):
            once()
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(40)
        return 0
    print("| case | engine CPU us per request (least of batches) |")
    print("|---|---:|")
    runners = {case.name: runner(case) for case in cases}
    for once in runners.values():
        once()
    frozen()
    for name, once in runners.items():
        print(f"| {name} | {least_us(once, args.batches, args.seconds):.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
