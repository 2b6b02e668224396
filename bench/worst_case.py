"""Every endpoint's worst case at its documented limits, in CPU per request.

    make worst-case                          # every case, a Markdown table; exit 1 if any > 50 ms
    .venv/bin/python bench/worst_case.py --only dreadnought --seconds 1
    .venv/bin/python bench/worst_case.py --odds-examples   # every /odds at its documented example
    .venv/bin/python bench/worst_case.py --cap   # the walk of every face at the odds branch cap

The requests are tests/worst_cases.py (the test suite checks every operation has one).
Each is a raw WSGI call of ``create_app()`` (no server, no test client), repeated until it
has used ``--seconds`` of CPU; the figure is the median of ``time.process_time()`` per call,
which counts this process's CPU only (the 2 shared cores' other work does not add to it,
though it still slows caches). The ratio is against a plain step, salvo-solo ``straddle``
with supplied dice, measured the same way. The app's objects are frozen for the garbage
collector after a first request, as the server freezes them before forking its workers.
Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from werkzeug.test import EnvironBuilder  # noqa: E402

from service import create_app  # noqa: E402
from service.engine import budget as work  # noqa: E402
from service.http.middleware import budget as request_budget  # noqa: E402
from tests.worst_cases import PLAIN, WORST_CASES, Case  # noqa: E402

BUDGET_MS = 50.0
REFUSAL_BYTES = 16 * 1024  # a refusal's answer is at most this long
_spent: list[int] = []  # the work budget each request spent, as it closes


def _closing(token: object) -> None:
    _spent.append(work.current().spent)
    work.close_budget(token)


request_budget.close_budget = _closing  # type: ignore[assignment]


class RawClient:
    """Calls the WSGI app directly with a prepared environ: what a server's worker does."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app

    def environ(self, method: str, path: str, body: Any) -> tuple[dict[str, Any], bytes]:
        data = None if body is None else json.dumps(body).encode()
        builder = EnvironBuilder(
            path=path,
            method=method,
            data=data,
            content_type="application/json" if data is not None else None,
        )
        try:
            return builder.get_environ(), data or b""
        finally:
            builder.close()

    def call(self, environ: dict[str, Any], data: bytes) -> tuple[int, bytes]:
        env = dict(environ)
        env["wsgi.input"] = io.BytesIO(data)
        status: list[str] = []

        def start_response(line: str, headers: Any, exc_info: Any = None) -> None:
            status.append(line)

        answer = self.app(env, start_response)
        try:
            out = b"".join(answer)
        finally:
            close = getattr(answer, "close", None)
            if close:
                close()
        return int(status[0].split()[0]), out

    def post(self, path: str, body: Any) -> Any:
        status, out = self.call(*self.environ("POST", path, body))
        if status != 200:
            raise RuntimeError(f"{path}: {status} {out[:300]!r}")
        return json.loads(out)


def body_of(case: Case, client: RawClient) -> Any:
    return case.body(client.post) if callable(case.body) else case.body


@dataclass
class Measured:
    case: Case
    status: int
    ms: float
    calls: int
    request_bytes: int
    response_bytes: int
    units: int  # of the request's work budget, spent


def measure(client: RawClient, case: Case, seconds: float, body: Any = None) -> Measured:
    if body is None:
        body = body_of(case, client)
    environ, data = client.environ(case.method, case.path, body)
    _spent.clear()
    status, out = client.call(environ, data)  # warm: first-call caches
    units = _spent[-1] if _spent else 0
    times: list[float] = []
    spent = 0.0
    while spent < seconds or len(times) < 5:
        start = time.process_time()
        client.call(environ, data)
        took = time.process_time() - start
        times.append(took)
        spent += took
    ms = statistics.median(times) * 1000
    return Measured(case, status, ms, len(times), len(data), len(out), units)


def table(rows: list[Measured], plain: Measured, budget: float = BUDGET_MS) -> str:
    lines = [
        f"| endpoint | limit that bounds it | CPU ms per request | ratio to a plain step "
        f"({plain.ms:.2f} ms) | work units | status |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for row in rows:
        case = row.case
        over = " **over**" if _over(row, budget) else ""
        lines.append(
            f"| `{case.method} {case.path}` | {case.limit} | {row.ms:.2f}{over} | "
            f"{row.ms / plain.ms:.1f} | {row.units:,} | {row.status} |"
        )
    return "\n".join(lines)


def _over(row: Measured, budget: float) -> bool:
    """Past its CPU budget, or a refusal past its answer's length."""
    refusal = row.status >= 400 and row.case.budget_ms is not None
    too_long = refusal and row.response_bytes > REFUSAL_BYTES
    return row.ms > (row.case.budget_ms or budget) or too_long


ODDS_EXAMPLE_BUDGET_MS = 5.0


def odds_examples(client: RawClient) -> list[Case]:
    """Every ``/odds`` operation with the request example the OpenAPI document gives it."""
    status, out = client.call(*client.environ("GET", "/openapi.json", None))
    assert status == 200, out[:300]
    cases = []
    for path, item in json.loads(out)["paths"].items():
        if not path.endswith("/odds"):
            continue
        example = item["post"]["requestBody"]["content"]["application/json"].get("example", {})
        cases.append(Case("POST", path, "documented example", example))
    return cases


def walk_at_the_cap(seconds: float) -> float:
    """CPU ms of ``enumerate_outcomes`` at ``MAX_ODDS_BRANCHES`` branches, each branch a
    Salvo! straddle resolved through its own code (the costliest step that still walks)."""
    from service.engine import dice
    from service.engine.resolution import Resolution
    from service.rulesets.salvo_solo import steps
    from service.rulesets.salvo_solo.ships import CATALOG, Ship

    inputs = steps.StraddleInput(
        Ship(CATALOG["Graf Spee"]), Ship(CATALOG["Prinz Eugen"]), "Short", "bow"
    )

    def play(source: dice.DiceSource) -> str:
        branch = source.draw("branch", 1, dice.MAX_ODDS_BRANCHES).total
        result = steps.straddle(inputs, Resolution(dice.SuppliedDice([6, 5, 4])))
        return f"{branch} {result}"

    times: list[float] = []
    while sum(times) < seconds or len(times) < 5:
        start = time.process_time()
        dice.enumerate_outcomes(play)
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU per case (default 0.5)")
    parser.add_argument(
        "--only", help="only cases whose path or limit contains this text (refused: refusals)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--odds-examples",
        action="store_true",
        help=f"every /odds at its documented example (budget {ODDS_EXAMPLE_BUDGET_MS:g} ms)",
    )
    parser.add_argument(
        "--cap", action="store_true", help="only the walk of every face at the odds branch cap"
    )
    args = parser.parse_args(argv)
    if args.cap:
        from service.engine.dice import MAX_ODDS_BRANCHES

        ms = walk_at_the_cap(max(args.seconds, 1.0))
        print(f"walk of every face at the cap ({MAX_ODDS_BRANCHES} branches): {ms:.2f} ms")
        return 1 if ms > BUDGET_MS else 0
    budget = ODDS_EXAMPLE_BUDGET_MS if args.odds_examples else BUDGET_MS

    with tempfile.TemporaryDirectory() as data_dir:
        client = RawClient(create_app({"FIRECONTROL_DATA_DIR": data_dir}))
        measure(client, PLAIN, 0.1)  # the app itself warm (schemas, signing)
        # As a worker runs: the preloaded app's objects frozen for the garbage collector
        # (deploy/gunicorn.conf.py, pre_fork), so a full collection does not walk them.
        gc.collect()
        gc.freeze()
        plain = measure(client, PLAIN, max(args.seconds, 1.0))
        cases = odds_examples(client) if args.odds_examples else WORST_CASES
        cases = [c for c in cases if not args.only or args.only in f"{c.path} {c.limit}"]
        rows = []
        for case in cases:
            row = measure(client, case, args.seconds)
            rows.append(row)
            print(f"  {row.ms:8.2f} ms  {row.status}  {case.method} {case.path}", file=sys.stderr)

    print(table(rows, plain, budget))
    wrong = [r for r in rows if r.status != r.case.status]
    over = [r for r in rows if _over(r, budget)]  # advice: its own
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "plain_ms": plain.ms,
                    "rows": [
                        {
                            "method": r.case.method,
                            "path": r.case.path,
                            "limit": r.case.limit,
                            "ms": r.ms,
                            "status": r.status,
                            "calls": r.calls,
                            "request_bytes": r.request_bytes,
                            "response_bytes": r.response_bytes,
                            "units": r.units,
                        }
                        for r in rows
                    ],
                },
                indent=2,
            )
        )
    for row in wrong:
        print(f"{row.case.path}: answered {row.status}, not {row.case.status}", file=sys.stderr)
    for row in over:
        limit = row.case.budget_ms or budget
        print(
            f"{row.case.path}: {row.ms:.1f} ms of CPU ({limit:g} ms allowed), "
            f"{row.response_bytes:,} bytes answered",
            file=sys.stderr,
        )
    return 1 if over or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
