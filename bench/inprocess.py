"""CPU per request inside the app, against the bare Flask route: raw WSGI calls, no server.

    .venv/bin/python bench/inprocess.py                     # the table; exit 1 past a target
    .venv/bin/python bench/inprocess.py --profile straddle  # cProfile of one case

Each case is an endpoint's documented request example (a game log of 10 chained turn
answers for ``verify``) sent as a raw WSGI call (``app(environ, start_response)``, what a
server's worker does, without the test client's own cost), in batches; a batch of the bare
route (bench/bare_app.py) runs right before each batch of a case, and each case's ratio is
the median over the rounds of its batch's CPU (``time.process_time()``, this process only)
over the bare batch's. Metrics write their files in a folder of their own, as under
gunicorn, and the app's objects are frozen for the garbage collector after the first
requests, as the server freezes them before it forks its workers. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Before prometheus_client is imported: the metrics are written to files, as in production.
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="fire-control-inproc-"))

from bench.bare_app import app as bare_app  # noqa: E402
from bench.run import TURN, VERIFY, game_log  # noqa: E402
from bench.worst_case import RawClient  # noqa: E402
from service import create_app  # noqa: E402

BARE_PATH = "/json"
BARE_BODY = {"notation": "3d6"}


@dataclass(frozen=True)
class Case:
    name: str
    path: str
    # At most this many times the bare route's CPU, or None: reported, not judged.
    target: float | None = None


CASES = (
    Case("straddle", "/v1/rulesets/salvo-solo/straddle", 3.0),
    Case("dreadnought-fire", "/v1/rulesets/dreadnought/fire"),
    Case("turn", TURN, 6.0),
    Case("salvo-grid-round", "/v1/rulesets/salvo-grid/salvo"),
    Case("verify-10", VERIFY),
)


def examples(client: RawClient) -> dict[str, Any]:
    """Each POST path's documented request example."""
    document = client.post_get("/openapi.json")
    found = {}
    for path, item in document["paths"].items():
        post = item.get("post")
        if post and "requestBody" in post:
            found[path] = post["requestBody"]["content"]["application/json"].get("example")
    return found


class Client(RawClient):
    def post_get(self, path: str) -> Any:
        import json

        status, out = self.call(*self.environ("GET", path, None))
        if status != 200:
            raise RuntimeError(f"{path}: {status}")
        return json.loads(out)


@dataclass
class Row:
    case: Case
    us: float  # median CPU per request
    bare_us: float
    ratio: float  # median of the rounds' ratios
    low: float
    high: float

    @property
    def met(self) -> bool | None:
        return None if self.case.target is None else self.ratio <= self.case.target


Prepared = dict[str, tuple[dict[str, Any], bytes]]


def requests(cases: tuple[Case, ...]) -> tuple[Client, Client, Prepared]:
    service = Client(create_app())
    bare = Client(bare_app)
    found = examples(service)
    prepared = {}
    for case in cases:
        if case.path == VERIFY:
            body: Any = game_log(service.post, found[TURN])
        else:
            body = found[case.path]
        prepared[case.name] = service.environ("POST", case.path, body)
        status, out = service.call(*prepared[case.name])
        if status != 200:
            raise RuntimeError(f"{case.name}: {status} {out[:300]!r}")
    prepared["bare"] = bare.environ("POST", BARE_PATH, BARE_BODY)
    for _ in range(50):  # first-call caches, on both sides
        for name, request in prepared.items():
            (bare if name == "bare" else service).call(*request)
    gc.collect()
    gc.freeze()
    return service, bare, prepared


def batch(client: Client, request: tuple[dict[str, Any], bytes], calls: int) -> float:
    """CPU seconds per call over ``calls`` calls."""
    start = time.process_time()
    for _ in range(calls):
        client.call(*request)
    return (time.process_time() - start) / calls


def measure(cases: tuple[Case, ...], rounds: int, seconds: float) -> list[Row]:
    service, bare, prepared = requests(cases)
    rows = []
    for case in cases:
        # Batches of about ``seconds`` each, sized from one timed call.
        one = batch(service, prepared[case.name], 5)
        calls = max(5, int(seconds / max(one, 1e-6)))
        bare_calls = max(5, int(seconds / max(batch(bare, prepared["bare"], 20), 1e-6)))
        mine, theirs, ratios = [], [], []
        for _ in range(rounds):
            floor = batch(bare, prepared["bare"], bare_calls)
            cost = batch(service, prepared[case.name], calls)
            mine.append(cost)
            theirs.append(floor)
            ratios.append(cost / floor)
        rows.append(
            Row(
                case,
                statistics.median(mine) * 1e6,
                statistics.median(theirs) * 1e6,
                statistics.median(ratios),
                min(ratios),
                max(ratios),
            )
        )
    return rows


def table(rows: list[Row]) -> str:
    lines = [
        "| case | CPU us per request | bare route us | ratio (median) | spread | target | met |",
        "|---|---:|---:|---:|---|---:|---|",
    ]
    for row in rows:
        target = "" if row.case.target is None else f"<= {row.case.target:g}"
        met = {None: "", True: "yes", False: "**no**"}[row.met]
        lines.append(
            f"| {row.case.name} (`{row.case.path}`) | {row.us:.0f} | {row.bare_us:.0f} | "
            f"{row.ratio:.2f} | {row.low:.2f} to {row.high:.2f} | {target} | {met} |"
        )
    return "\n".join(lines)


def profile(name: str, calls: int, top: int) -> None:
    cases = tuple(case for case in CASES if case.name == name) or CASES[:0]
    service, bare, prepared = requests(cases)
    client, request = (bare, prepared["bare"]) if name == "bare" else (service, prepared[name])
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        client.call(*request)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=0.3, help="CPU seconds per batch")
    parser.add_argument("--profile", metavar="CASE", help="a case's name, or bare")
    parser.add_argument("--calls", type=int, default=2000, help="calls to profile")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--only", help="only the cases whose name contains this text")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.calls, args.top)
        return 0
    cases = tuple(case for case in CASES if not args.only or args.only in case.name)
    rows = measure(cases, args.rounds, args.seconds)
    print(table(rows))
    missed = [row.case.name for row in rows if row.met is False]
    if missed:
        print(f"\nover target: {', '.join(missed)}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
