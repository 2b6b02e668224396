"""Every POST endpoint's throughput as a share of a bare Flask app's, measured in one run.

    make bench                         # all endpoints, 5 s each
    .venv/bin/python bench/run.py --duration 10 --only salvo-solo

Both servers are gunicorn with deploy/gunicorn.conf.py (same workers, same logging): the
service, and bench/bare_app.py (one JSON route), the framework's ceiling. Every endpoint is
measured with wrk right after a ceiling run, and its ratio is taken against the mean of the
ceiling runs just before and just after it, so a machine that speeds up or slows down
during the run moves both sides. Each request is the endpoint's documented example.
Needs wrk (Debian: apt-get install -y wrk). Not part of `make test`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.serving_helpers import BIN, CONFIG, Server, start, stop  # noqa: E402

COMPOSITE = {"attack", "turn", "salvo"}
TARGETS = {"single": 0.8, "composite": 0.6}
SCRIPTS = ROOT / "bench" / "wrk"


SOCKET_ERRORS = r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)"


@dataclass
class Run:
    rps: float
    p50_ms: float
    p99_ms: float
    non_2xx: int
    socket_errors: int


@dataclass
class Row:
    path: str
    kind: str
    rps: float
    ceiling_rps: float
    ratio: float
    target: float | None
    p50_ms: float
    p99_ms: float
    ceiling_p50_ms: float
    ceiling_p99_ms: float
    errors: int


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def parse_wrk(out: str) -> Run:
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sockets = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out
    )
    return Run(
        rps,
        _ms(p50.group(1)) if p50 else float("nan"),
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
    if path.endswith("/odds"):
        return "odds"
    if path == "/v1/dice/roll":
        return "single"
    parts = path.strip("/").split("/")
    if len(parts) == 4 and parts[:2] == ["v1", "rulesets"]:
        return "composite" if parts[3] in COMPOSITE else "single"
    return "other"


def endpoints(server: Server, only: str | None) -> list[tuple[str, Any]]:
    document = server.request("GET", "/openapi.json").json()
    found = []
    for path, item in sorted(document["paths"].items()):
        post = item.get("post")
        if not post or "{" in path or (only and only not in path):
            continue
        body = post["requestBody"]["content"]["application/json"].get("example", {})
        answer = server.request("POST", path, body)
        if answer.status != 200:
            print(f"skipped {path}: its example got {answer.status}", file=sys.stderr)
            continue
        found.append((path, body))
    return found


def start_servers(folder: Path, workers: int) -> tuple[Server, Server]:
    service = start(folder / "service", workers=workers)
    bare = start(
        folder / "bare",
        workers=workers,
        command=[str(BIN / "gunicorn"), "-c", CONFIG, "bench.bare_app:app"],
        ready=lambda server, _: server.request("GET", "/json").status == 200,
    )
    return service, bare


def measure(args: argparse.Namespace) -> list[Row]:
    folder = Path(tempfile.mkdtemp(prefix="fire-control-bench-"))
    for name in ("service", "bare"):
        (folder / name).mkdir()
    service, bare = start_servers(folder, args.workers)
    try:
        ceiling_body = folder / "ceiling.json"
        ceiling_body.write_text(json.dumps({"notation": "3d6"}))
        bare_url = f"http://127.0.0.1:{bare.port}/json"

        def load(url: str, body: Path, seconds: float) -> Run:
            run, _ = wrk(url, "post.lua", str(body), seconds, args.connections, args.threads)
            return run

        def ceiling() -> Run:
            return load(bare_url, ceiling_body, args.duration)

        chosen = endpoints(service, args.only)
        # Warm both up (first requests fill caches and page in code).
        load(bare_url, ceiling_body, 1)
        before = ceiling()
        rows = []
        for path, body in chosen:
            body_file = folder / "body.json"
            body_file.write_text(json.dumps(body))
            url = f"http://127.0.0.1:{service.port}{path}"
            load(url, body_file, 1)
            run = load(url, body_file, args.duration)
            after = ceiling()
            roof = (before.rps + after.rps) / 2
            kind = kind_of(path)
            row = Row(
                path,
                kind,
                run.rps,
                roof,
                run.rps / roof,
                TARGETS.get(kind),
                run.p50_ms,
                run.p99_ms,
                (before.p50_ms + after.p50_ms) / 2,
                (before.p99_ms + after.p99_ms) / 2,
                run.non_2xx + run.socket_errors,
            )
            rows.append(row)
            print(_line(row), file=sys.stderr, flush=True)
            before = after
        return rows
    finally:
        stop(service)
        stop(bare)
        shutil.rmtree(folder, ignore_errors=True)


def _line(row: Row) -> str:
    verdict = "" if row.target is None else ("yes" if row.ratio >= row.target else "**no**")
    target = "" if row.target is None else f"{row.target:.1f}"
    return (
        f"| `{row.path}` | {row.kind} | {row.rps:,.0f} | {row.ceiling_rps:,.0f} | "
        f"{row.ratio:.2f} | {target} | {verdict} | {row.p50_ms:.2f} | {row.p99_ms:.2f} | "
        f"{row.errors} |"
    )


def table(rows: list[Row]) -> str:
    head = (
        "| endpoint | kind | req/s | ceiling req/s | ratio | target | met | p50 ms | p99 ms | "
        "errors |\n|---|---|---:|---:|---:|---:|---|---:|---:|---:|"
    )
    return "\n".join([head, *(_line(row) for row in rows)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=5, help="seconds per wrk run")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", 2)))
    parser.add_argument("--only", help="only paths containing this text")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install -y wrk)", file=sys.stderr)
        return 2
    rows = measure(args)
    print(
        f"wrk -t{args.threads} -c{args.connections} -d{args.duration:g}s, "
        f"{args.workers} sync workers, {os.cpu_count()} cores\n"
    )
    print(table(rows))
    ceilings = [row.ceiling_rps for row in rows]
    if ceilings:
        print(
            f"\nceiling p50 {sum(r.ceiling_p50_ms for r in rows) / len(rows):.2f} ms, "
            f"p99 {sum(r.ceiling_p99_ms for r in rows) / len(rows):.2f} ms, "
            f"req/s {min(ceilings):,.0f} to {max(ceilings):,.0f}"
        )
    if args.json:
        args.json.write_text(json.dumps([asdict(row) for row in rows], indent=1))
    missed = [row for row in rows if row.target is not None and row.ratio < row.target]
    return 1 if missed or any(row.errors for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
