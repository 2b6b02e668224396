"""The heat map's CPU over heavy views of real fleets (tests/heat_views.py), in process.

    .venv/bin/python bench/heatmap_views.py --views 200 --mutations 400

Each view is a raw WSGI call of ``create_app()`` (bench/worst_case.py's RawClient), timed
with ``time.process_time()``; the heaviest of each kind are timed again (the median of
three) before they are reported. Kinds: legal views as generated; views one step from the
heaviest legal ones (a hit moved, a miss added or dropped, a count off by one, a hit made a
contact), answered (200) or refused (422); and a short climb from the heaviest, keeping a
step when it costs more.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.worst_case import RawClient  # noqa: E402
from service import create_app  # noqa: E402
from tests.heat_views import heavy_view, mutated  # noqa: E402

PATH = "/v1/rulesets/salvo-grid/heatmap"
DICE = {"seed": "heat", "nonce": 0}


def timed(client: RawClient, body: dict[str, Any], times: int = 1) -> tuple[int, float, bytes]:
    environ, data = client.environ("POST", PATH, {**body, "dice": DICE})
    took = []
    status, out = 0, b""
    for _ in range(times):
        start = time.process_time()
        status, out = client.call(environ, data)
        took.append(time.process_time() - start)
    return status, statistics.median(took) * 1000, out


def report(kind: str, rows: list[tuple[float, int, str]]) -> None:
    if not rows:
        print(f"{kind}: none")
        return
    ms = [r[0] for r in rows]
    worst = max(rows)
    print(
        f"{kind}: {len(rows)} views, median {statistics.median(ms):.1f} ms, "
        f"max {worst[0]:.1f} ms ({worst[2]}, {worst[1]})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=200)
    parser.add_argument("--mutations", type=int, default=400)
    parser.add_argument("--climb", type=int, default=150)
    parser.add_argument("--prefix", default="heavy")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as data_dir:
        client = RawClient(create_app({"FIRECONTROL_DATA_DIR": data_dir}))
        timed(client, heavy_view(f"{args.prefix}-0"))
        gc.collect()
        gc.freeze()
        legal: list[tuple[float, int, str]] = []
        bodies: dict[str, dict[str, Any]] = {}
        for i in range(args.views):
            seed = f"{args.prefix}-{i}"
            body = bodies[seed] = heavy_view(seed)
            status, ms, out = timed(client, body)
            if status != 200:
                print(f"  {seed}: {status} {out[:200]!r}", file=sys.stderr)
            legal.append((ms, status, seed))
        top = sorted(legal, reverse=True)[:10]
        legal = [r for r in legal if r not in top] + [
            (timed(client, bodies[s], 3)[1], st, s) for _, st, s in top
        ]
        report("legal", legal)
        answered: list[tuple[float, int, str]] = []
        refused: list[tuple[float, int, str]] = []
        heaviest = [s for _, _, s in sorted(legal, reverse=True)[:20]]
        for j in range(args.mutations):
            base = heaviest[j % len(heaviest)]
            seed = f"{base}/m{j}"
            body = bodies[seed] = mutated(bodies[base], seed)
            status, ms, _ = timed(client, body)
            (answered if status == 200 else refused).append((ms, status, seed))
        # A climb: from the heaviest answered or refused, a step kept when it costs more.
        for pool in (answered, refused):
            if not pool:
                continue
            ms, status, seed = max(pool)
            for k in range(args.climb):
                step = f"{seed}/c{k}"
                body = mutated(bodies[seed], step)
                st, took, _ = timed(client, body)
                if (st == 200) == (status == 200) and took > ms:
                    bodies[step] = body
                    ms, seed = took, step
                    pool.append((took, st, step))
        for pool in (answered, refused):
            top = sorted(pool, reverse=True)[:10]
            pool[:] = [r for r in pool if r not in top] + [
                (timed(client, bodies[s], 3)[1], st, s) for _, st, s in top
            ]
        report("mutated, answered", answered)
        report("mutated, refused", refused)
        for kind, pool in (("legal", legal), ("answered", answered), ("refused", refused)):
            for ms, status, seed in sorted(pool, reverse=True)[:3]:
                print(f"  {kind} {ms:.1f} ms {status} {seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
