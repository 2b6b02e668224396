"""The verify route's dearest bodies, refused and answered, in CPU per request.

    .venv/bin/python bench/verify_cost.py --seconds 0.5

Each is a raw WSGI call of ``create_app()`` (bench/worst_case.py's ``RawClient``), the
figure the worst of the medians of ``--runs`` runs of ``time.process_time()`` per call.
The bodies: three 1 MiB bodies refused for their shape (one object of 96,000 members,
65,000 empty objects, 524,000 zeros), 100 chained fleet-action turn answers, 100 chained
Salvo! turn answers, and the 1 MiB of one-digit numbers in 100 signed answers
(tests/worst_cases.py ``tiny_values_log``). Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.worst_case import RawClient  # noqa: E402
from service import create_app  # noqa: E402
from tests.worst_cases import (  # noqa: E402
    FLEET,
    FLEET_A_NAMES,
    FLEET_B_NAMES,
    FLEET_TURN_STATE,
    SOLO,
    SOLO_TURN_STATE,
    fleet_guns,
    tiny_values_log,
)

VERIFY = "/v1/receipts/verify"


def _chained(post: Callable[[str, Any], Any], path: str, body: Callable[[int], Any]) -> Any:
    log: list[Any] = []
    for nonce in range(1, 101):
        asked = body(nonce)
        if log:
            asked["prev"] = hashlib.sha256(log[-1]["receipt"].encode()).hexdigest()
        log.append(post(path, asked))
    return log


def fleet_action_log(post: Callable[[str, Any], Any]) -> Any:
    """100 chained fleet-action turn answers at the worst case's limits."""
    return _chained(
        post,
        f"{FLEET}/turn",
        lambda nonce: {
            "state": FLEET_TURN_STATE,
            "activation": {**fleet_guns(FLEET_B_NAMES[5], FLEET_A_NAMES[0]), "moved": 10},
            "dice": {"seed": "fleet-game", "nonce": nonce},
        },
    )


def salvo_log(post: Callable[[str, Any], Any]) -> Any:
    """100 chained Salvo! turn answers, inline cards at their longest."""
    return _chained(
        post,
        f"{SOLO}/turn",
        lambda nonce: {
            "state": SOLO_TURN_STATE,
            "player_action": "C",
            "dice": {"seed": "salvo-game", "nonce": nonce},
        },
    )


MIB = 1024 * 1024


def crowded_object() -> bytes:
    members = (f'"{i:05x}":0' for i in range(96_000))
    return b"{" + ",".join(members).encode() + b"}"


BODIES: dict[str, Callable[[RawClient], bytes | Any]] = {
    "refused: one object of 96,000 members": lambda c: crowded_object(),
    "refused: 65,000 empty objects": lambda c: b"[" + b",".join([b"{}"] * 65_000) + b"]",
    "refused: 524,000 zeros": lambda c: b"[" + b",".join([b"0"] * 524_000) + b"]",
    "100 chained fleet-action turns": lambda c: fleet_action_log(c.post),
    "100 chained Salvo! turns": lambda c: salvo_log(c.post),
    "1 MiB of one-digit numbers in 100 answers": lambda c: tiny_values_log(c.post),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU per run (default 0.5)")
    parser.add_argument("--runs", type=int, default=3, help="runs per body (the worst kept)")
    parser.add_argument("--only", help="only bodies whose name contains this text")
    args = parser.parse_args(argv)
    import orjson

    with tempfile.TemporaryDirectory() as data_dir:
        client = RawClient(create_app({"FIRECONTROL_DATA_DIR": data_dir}))
        gc.collect()
        gc.freeze()
        print("| body | bytes | status | answer bytes | CPU ms (worst median) |")
        print("|---|---:|---:|---:|---:|")
        for name, make in BODIES.items():
            if args.only and args.only not in name:
                continue
            made = make(client)
            data = made if isinstance(made, bytes) else orjson.dumps(made)
            environ, _ = client.environ("POST", VERIFY, None)
            environ["CONTENT_TYPE"] = "application/json"
            environ["CONTENT_LENGTH"] = str(len(data))
            status, out = client.call(environ, data)
            medians = []
            for _ in range(args.runs):
                times: list[float] = []
                while sum(times) < args.seconds or len(times) < 5:
                    start = time.process_time()
                    client.call(environ, data)
                    times.append(time.process_time() - start)
                medians.append(statistics.median(times) * 1000)
            print(
                f"| {name} | {len(data):,} | {status} | {len(out):,} | {max(medians):.2f} |",
                flush=True,
            )
            if status != 200:
                print(f"    {out[:300]!r}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
