"""Every POST endpoint's throughput beside the bare Flask route's, by kind, with targets.

    make bench                                   # every endpoint; exit 1 if a target is missed
    .venv/bin/python bench/run.py --only salvo-solo --rounds 5 --duration 3

Both servers are gunicorn with deploy/gunicorn.conf.py and the same settings (2 sync
workers, gunicorn's access log off as behind the sidecar, metrics in multiprocess mode):
the service, and bench/bare_app.py (one JSON route), the framework's ceiling. Each
endpoint's documented request example (for /v1/receipts/verify, a game log of 10 chained
turn answers) is sent by wrk for ``--duration`` seconds right after a run of the bare route,
``--rounds`` times, and once more the bare route after the last: each round's ratio is the
endpoint's requests per second over the mean of the bare runs just before and just after
it, so a machine that speeds up or slows down moves both sides. The table gives each
ratio's median and its spread over the rounds, and the CPU each request cost the server's
workers (user + system from /proc/<pid>/stat, over the requests wrk counted), which the
other work of a shared machine disturbs far less than throughput.

Targets, by kind: a single step at 0.55 of the bare route or better, a composite step 0.4,
a salvo-grid round 0.25, a verify of 10 entries 0.12; odds, advice (the Salvo! advisor and
salvo-grid's computer captain), the heat map, the seed endpoints and the miniatures' turns
(no target was set for them) are reported, not judged. In-process (bench/inprocess.py,
raw WSGI calls), a straddle at most 3 times the bare route's CPU and a turn at most 6
times. Exits 0 when every judged endpoint meets its target, 1 otherwise (saying which), 2
without wrk (``make test-packages`` installs it).
Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.access_log_cpu import cpu_seconds  # noqa: E402
from service.receipts.signing import receipt_hash  # noqa: E402
from tests.serving_helpers import BIN, CONFIG, Server, start, stop  # noqa: E402

SCRIPTS = ROOT / "bench" / "wrk"
VERIFY = "/v1/receipts/verify"
TURN = "/v1/rulesets/salvo-solo/turn"
ROUND = "/v1/rulesets/salvo-grid/salvo"
COMPOSITE = {"attack", "turn", "salvo"}
# Choices made for a player, each a search over many games or squares.
ADVICE = {"/v1/rulesets/salvo-solo/advice", "/v1/rulesets/salvo-grid/computer"}
# The miniatures' turns: every battery of every ship of an action (dreadnought), or one
# activation with the turn's state around it (fleet-action). No target was set for them.
ACTION_TURNS = {"/v1/rulesets/dreadnought/turn", "/v1/rulesets/fleet-action/turn"}
TARGETS = {"step": 0.55, "composite": 0.4, "verify": 0.12}
# A salvo-grid round (every shot of a salvo, both oceans echoed) has a target of its own.
PATH_TARGETS = {ROUND: 0.25}
VERIFY_ENTRIES = 10
# Same settings for both servers: as in the pods, where nginx writes the access log.
SERVER_ENV = {"ACCESS_LOG": "off"}


@dataclass
class Run:
    rps: float
    requests: int
    p99_ms: float
    non_2xx: int
    socket_errors: int
    cpu_us: float = float("nan")  # the workers' CPU per request


@dataclass
class Row:
    path: str
    kind: str
    target: float | None
    ratio: float  # median over the rounds
    low: float
    high: float
    rps: float
    bare_rps: float
    cpu_us: float
    bare_cpu_us: float
    p99_ms: float
    errors: int
    ratios: list[float] = field(default_factory=list)

    @property
    def met(self) -> bool | None:
        return None if self.target is None else self.ratio >= self.target


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def parse_wrk(out: str) -> Run:
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    count = re.search(r"(\d+) requests in", out)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sockets = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out
    )
    return Run(
        rps,
        int(count.group(1)) if count else 0,
        _ms(p99.group(1)) if p99 else float("nan"),
        int(non_2xx.group(1)) if non_2xx else 0,
        sum(int(n) for n in sockets.groups()) if sockets else 0,
    )


def wrk(
    url: str, script: str, arg: str, duration: float, connections: int, threads: int
) -> tuple[Run, str]:
    command = [
        "wrk",
        f"-t{threads}",
        f"-c{connections}",
        f"-d{duration:g}s",
        "--latency",
        "-s",
        str(SCRIPTS / script),
        url,
        "--",
        arg,
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=duration + 60, check=True
    )
    return parse_wrk(done.stdout), done.stdout


def kind_of(path: str) -> str:
    """What an endpoint does, for its target: step, composite, action turn, odds, advice,
    heat map, verify, or seed (sealing and revealing seeds, opening a game)."""
    if path == VERIFY:
        return "verify"
    if path.endswith("/odds"):
        return "odds"
    if path in ADVICE:
        return "advice"
    if path in ACTION_TURNS:
        return "action turn"
    if path.endswith("/heatmap"):
        return "heat map"
    if path == "/v1/dice/roll":
        return "step"
    parts = path.strip("/").split("/")
    if len(parts) == 4 and parts[:2] == ["v1", "rulesets"]:
        return "composite" if parts[3] in COMPOSITE else "step"
    return "seed"


def target_of(path: str) -> float | None:
    return PATH_TARGETS.get(path, TARGETS.get(kind_of(path)))


def endpoints(server: Server, only: str | None) -> list[tuple[str, Any]]:
    """Each POST path's documented request example (a 10-turn game log for verify)."""
    document = server.request("GET", "/openapi.json").json()
    examples = {
        path: item["post"]["requestBody"]["content"]["application/json"].get("example", {})
        for path, item in document["paths"].items()
        if "post" in item and "{" not in path
    }
    found = []
    for path, body in sorted(examples.items()):
        if only and only not in path:
            continue
        if path == VERIFY:
            body = game_log(lambda p, b: server.request("POST", p, b).json(), examples[TURN])
        answer = server.request("POST", path, body)
        if answer.status != 200:
            print(f"skipped {path}: its example got {answer.status}", file=sys.stderr)
            continue
        found.append((path, body))
    return found


def game_log(
    post: Callable[[str, Any], Any], turn: Any, entries: int = VERIFY_ENTRIES
) -> list[Any]:
    """``entries`` answers of the turn example, one seeded game, each chained to the one
    before (``prev``, one nonce a call): a valid log, so its answer signs a checkpoint too."""
    log: list[Any] = []
    for nonce in range(1, entries + 1):
        body = {**turn, "dice": {"seed": "bench-game", "nonce": nonce}}
        if log:
            body["prev"] = receipt_hash(log[-1]["receipt"])
        log.append(post(TURN, body))
    return log


def start_servers(folder: Path, workers: int) -> tuple[Server, Server]:
    service = start(folder / "service", workers=workers, env=SERVER_ENV)
    bare = start(
        folder / "bare",
        workers=workers,
        command=[str(BIN / "gunicorn"), "-c", CONFIG, "bench.bare_app:app"],
        env=SERVER_ENV,
        ready=lambda server, _: server.request("GET", "/json").status == 200,
    )
    return service, bare


def measured(server: Server, url: str, body: Path, args: argparse.Namespace) -> Run:
    """One wrk run, with the CPU the server's workers spent on it, per request."""
    workers = sorted(server.workers())
    before = sum(cpu_seconds(pid) for pid in workers)
    run, _ = wrk(url, "post.lua", str(body), args.duration, args.connections, args.threads)
    spent = sum(cpu_seconds(pid) for pid in workers) - before
    run.cpu_us = spent / run.requests * 1e6 if run.requests else float("nan")
    return run


def measure(args: argparse.Namespace) -> list[Row]:
    folder = Path(tempfile.mkdtemp(prefix="fire-control-bench-"))
    for name in ("service", "bare"):
        (folder / name).mkdir()
    service, bare = start_servers(folder, args.workers)
    try:
        bare_body = folder / "bare.json"
        bare_body.write_text(json.dumps({"notation": "3d6"}))
        bare_url = f"http://127.0.0.1:{bare.port}/json"

        def ceiling() -> Run:
            return measured(bare, bare_url, bare_body, args)

        chosen = endpoints(service, args.only)
        wrk(bare_url, "post.lua", str(bare_body), 1, args.connections, args.threads)  # warm
        rows = []
        for path, body in chosen:
            body_file = folder / "body.json"
            body_file.write_text(json.dumps(body))
            url = f"http://127.0.0.1:{service.port}{path}"
            wrk(url, "post.lua", str(body_file), 1, args.connections, args.threads)  # warm
            bares, runs = [ceiling()], []
            for _ in range(args.rounds):
                runs.append(measured(service, url, body_file, args))
                bares.append(ceiling())
            ratios = [
                run.rps / ((a.rps + b.rps) / 2)
                for run, a, b in zip(runs, bares, bares[1:], strict=False)
            ]
            row = Row(
                path,
                kind_of(path),
                target_of(path),
                statistics.median(ratios),
                min(ratios),
                max(ratios),
                statistics.median(run.rps for run in runs),
                statistics.median(run.rps for run in bares),
                statistics.median(run.cpu_us for run in runs),
                statistics.median(run.cpu_us for run in bares),
                statistics.median(run.p99_ms for run in runs),
                sum(run.non_2xx + run.socket_errors for run in runs),
                ratios,
            )
            rows.append(row)
            print(_line(row), file=sys.stderr, flush=True)
        return rows
    finally:
        stop(service)
        stop(bare)
        shutil.rmtree(folder, ignore_errors=True)


def _line(row: Row) -> str:
    verdict = {None: "", True: "yes", False: "**no**"}[row.met]
    target = "" if row.target is None else f"{row.target:g}"
    return (
        f"| `{row.path}` | {row.kind} | {row.ratio:.2f} | {row.low:.2f} to {row.high:.2f} | "
        f"{target} | {verdict} | {row.rps:,.0f} | {row.bare_rps:,.0f} | {row.cpu_us:,.0f} | "
        f"{row.bare_cpu_us:,.0f} | {row.cpu_us / row.bare_cpu_us:.1f} | {row.p99_ms:.1f} | "
        f"{row.errors} |"
    )


def table(rows: list[Row]) -> str:
    head = (
        "| endpoint | kind | ratio | spread | target | met | req/s | bare req/s | "
        "CPU us/req | bare CPU us/req | CPU x bare | p99 ms | errors |\n"
        "|---|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"
    )
    return "\n".join([head, *(_line(row) for row in rows)])


def summary(rows: list[Row]) -> str:
    """One line a kind: how many of its endpoints meet the target, and their median."""
    lines = []
    for kind in dict.fromkeys(row.kind for row in rows):
        mine = [row for row in rows if row.kind == kind]
        ratios = (
            ", ".join(f"{row.ratio:.2f}" for row in mine)
            if len(mine) < 4
            else (
                f"median {statistics.median(row.ratio for row in mine):.2f}, "
                f"{min(row.ratio for row in mine):.2f} to {max(row.ratio for row in mine):.2f}"
            )
        )
        judged = [row for row in mine if row.target is not None]
        verdict = (
            f"{sum(bool(row.met) for row in judged)} of {len(judged)} meet "
            f"{'/'.join(sorted({f'{row.target:g}' for row in judged}))}"
            if judged
            else "not judged"
        )
        counted = f"{len(mine)} endpoint" + ("" if len(mine) == 1 else "s")
        lines.append(f"- {kind}: {counted}, ratio {ratios}; {verdict}")
    return "\n".join(lines)


def in_process(rounds: int) -> tuple[str, list[str]]:
    """bench/inprocess.py's table, and the cases over their target."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "inprocess.py"), "--rounds", str(rounds)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise RuntimeError(f"bench/inprocess.py failed:\n{done.stderr[-2000:]}")
    missed = re.findall(r"^\| (\S+) \(.*\*\*no\*\* \|$", done.stdout, re.M)
    return done.stdout.strip(), missed


def machine() -> str:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "unknown CPU",
    )
    return f"{os.cpu_count()} cores, {model}, Python {platform.python_version()}"


def load_average() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    )
    return done.stdout.strip() or "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=2, help="seconds per wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each endpoint")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", 2)))
    parser.add_argument("--only", help="only paths containing this text")
    parser.add_argument("--no-in-process", action="store_true", help="skip bench/inprocess.py")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed: make test-packages (Debian: apt-get install wrk)")
        return 2
    started = datetime.datetime.now(datetime.UTC)
    load_before = load_average()
    rows = measure(args)
    inside, inside_missed = ("", []) if args.no_in_process else in_process(args.rounds + 2)
    print(
        f"{started:%Y-%m-%d %H:%M} UTC, commit {commit()}, {machine()}; load average "
        f"(1, 5, 15 min) {load_before} at the start, {load_average()} at the end.\n"
        f"wrk -t{args.threads} -c{args.connections} -d{args.duration:g}s, {args.rounds} "
        f"rounds beside the bare route, {args.workers} sync workers, access log off.\n"
    )
    print(table(rows))
    if inside:
        print("\nIn-process (bench/inprocess.py), CPU per request against the bare route:\n")
        print(inside)
    if args.json:
        args.json.write_text(json.dumps([asdict(row) for row in rows], indent=1))
    missed = [row for row in rows if row.met is False]
    failed = [row for row in rows if row.errors]
    print()
    print(summary(rows))
    for row in missed:
        print(f"missed: {row.path} ({row.kind}) at {row.ratio:.2f}, target {row.target:g}")
    for name in inside_missed:
        print(f"missed: in-process {name} over its target")
    for row in failed:
        print(f"failed: {row.path} had {row.errors} errors")
    if missed or inside_missed or failed:
        return 1
    print("Every judged endpoint meets its target.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
