"""The Salvo! advisor's CPU per request, cold (a worker that has never seen the cards) and warm.

    .venv/bin/python bench/advice_cold.py                 # the worst case and the catalog pairs
    .venv/bin/python bench/advice_cold.py --profile       # cProfile of the worst cold call

Each request is a raw WSGI call of ``create_app()`` (as ``bench/worst_case.py`` makes it);
"cold" clears every per-worker cache the advisor reads (``advice.clear_caches``) first,
"warm" asks the same again; each figure is the least of ``--repeat`` calls. The app's objects
are frozen for the garbage collector first, as the server does before forking a worker. CPU
is ``time.process_time()`` (this process only). Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
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
from service.rulesets.salvo_solo import advice  # noqa: E402
from service.rulesets.salvo_solo.ships import CATALOG  # noqa: E402
from tests.worst_cases import (  # noqa: E402
    SEED,
    SOLO_ADVICE_DIFFERING,
    SOLO_ADVICE_STATE,
    solo_card,
)

PATH = "/v1/rulesets/salvo-solo/advice"
BRITISH = [name for name, card in CATALOG.items() if card.nation == "Britain"]
GERMAN = [name for name, card in CATALOG.items() if card.nation == "Germany"]


def catalog_state(player: str, enemy: str, range_: str) -> dict[str, Any]:
    return {
        "turn": 2,
        "weather": "Fine",
        "range": range_,
        "player": {"ship": player},
        "enemy": {"ship": enemy},
        "enemy_last_action": "C",
        "player_has_straddled": False,
        "enemy_has_straddled": False,
    }


# One more state at the figures' limits, heavier than the first worst case of
# tests/worst_cases.py when measured warm (its second, the cards that differ, is below too):
# armoured cards at Medium range.
ARMOURED = {
    **SOLO_ADVICE_STATE,
    "range": "Medium",
    "player": solo_card(type="CL", guns=6, armor=10),
    "enemy": solo_card(type="CL", guns=8, armor=10),
}


def cases() -> list[tuple[str, dict[str, Any]]]:
    out = [
        ("worst case (cards at the limits)", {"state": SOLO_ADVICE_STATE, "dice": SEED}),
        ("cards at the limits, differing", {"state": SOLO_ADVICE_DIFFERING, "dice": SEED}),
        ("cards at the limits, armoured, at Medium", {"state": ARMOURED, "dice": SEED}),
    ]
    for range_ in ("Short", "Medium"):
        for b in BRITISH:
            for g in GERMAN:
                for player, enemy in ((b, g), (g, b)):
                    body = {"state": catalog_state(player, enemy, range_), "dice": SEED}
                    out.append((f"{player} v {enemy} at {range_}", body))
    return out


def timed(client: RawClient, environ: dict[str, Any], data: bytes) -> float:
    start = time.process_time()
    status, out = client.call(environ, data)
    took = time.process_time() - start
    if status != 200:
        raise RuntimeError(out[:300])
    return took * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--only", help="only cases whose name contains this text")
    parser.add_argument("--repeat", type=int, default=3, help="calls per case (the least)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        client = RawClient(create_app({"FIRECONTROL_DATA_DIR": data_dir}))
        # the app itself warm (schemas, signing), the advisor's caches cleared per case
        env, data = client.environ("POST", PATH, cases()[-1][1])
        client.call(env, data)
        # As a worker runs: the preloaded app's objects frozen before the fork
        # (deploy/gunicorn.conf.py, pre_fork), so a full garbage collection does not walk them.
        gc.collect()
        gc.freeze()
        colds, warms = [], []
        for name, body in cases():
            if args.only and args.only not in name:
                continue
            env, data = client.environ("POST", PATH, body)
            if args.profile:
                advice.clear_caches()
                profile = cProfile.Profile()
                profile.enable()
                client.call(env, data)
                profile.disable()
                pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
                return 0
            cold = []
            for _ in range(args.repeat):
                advice.clear_caches()
                cold.append(timed(client, env, data))
            warm = [timed(client, env, data) for _ in range(args.repeat)]
            c, w = min(cold), min(warm)
            colds.append(c)
            warms.append(w)
            print(f"{c:8.1f} cold {w:8.1f} warm  {name}", flush=True)
    print(
        f"cold: max {max(colds):.1f} median {statistics.median(colds):.1f}; "
        f"warm: max {max(warms):.1f} median {statistics.median(warms):.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
