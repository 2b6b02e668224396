"""The fault tests' scenarios again, with their figures printed (the tests only assert).

    .venv/bin/python bench/faults.py

1. SIGKILL one of two workers under 4 clients' steady load: requests lost, time until a
   replacement serves, requests served after.
2. SIGTERM the master while both workers hold a half-sent request: do both finish, and how
   long the shutdown takes.
3. A flood of bad bodies: the statuses it got.
4. One client sending malformed framings (duplicate headers, bad lengths, bad chunks) back
   to back: workers lost (each once took one), files in the metrics folder, /metrics time.
5. Workers recycled every 5 requests under load: files in the metrics folder and the
   time a /metrics scrape takes, against a server that never recycled.

Name scenarios to run only those: ``bench/faults.py framings recycles``.
"""

from __future__ import annotations

import collections
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.serving_helpers import ROLL, Server, roll_request, running  # noqa: E402
from tests.test_faults_server import Load, _bad_requests, _listen_queue, wait_until  # noqa: E402
from tests.test_front_door import FRAMINGS, send  # noqa: E402


def sigkill(folder: Path) -> None:
    with running(folder, workers=2) as srv, Load(srv) as load:
        load.wait_for(500)
        victim = min(srv.workers())
        before = load.ok
        killed = time.monotonic()
        os.kill(victim, signal.SIGKILL)
        wait_until("a new worker", lambda: victim not in srv.workers() and len(srv.workers()) == 2)
        replaced = time.monotonic() - killed
        srv.wait_for_workers(2)
        serving = time.monotonic() - killed
        load.wait_for(1000)
        print(
            f"SIGKILL: {before} requests before; lost {len(load.failures)} "
            f"({load.failures}); replacement forked after {replaced * 1000:.0f} ms and "
            f"serving after {serving * 1000:.0f} ms; {load.ok - before} served since"
        )


def sigterm(folder: Path) -> None:
    with running(folder, workers=2) as srv:
        head, body = roll_request()
        clients = [socket.create_connection(("127.0.0.1", srv.port), timeout=30) for _ in "ab"]
        for client in clients:
            client.sendall(head + body[:7])
        wait_until("both requests taken", lambda: _listen_queue(srv.port) == 0)
        began = time.monotonic()
        srv.process.send_signal(signal.SIGTERM)
        time.sleep(1.0)  # the slow clients take a second to finish their bodies
        statuses = []
        for client in clients:
            client.sendall(body[7:])
            answer = b""
            while chunk := client.recv(65536):
                answer += chunk
            client.close()  # else gunicorn lingers up to 2 s for the peer's FIN
            statuses.append(answer.split(b" ", 2)[1].decode())
        srv.process.wait(timeout=30)
        print(
            f"SIGTERM: requests in hand answered {statuses}; master exited "
            f"{srv.process.returncode} after {time.monotonic() - began:.2f} s "
            "(1 s of it waiting for the slow clients)"
        )


def flood(folder: Path) -> None:
    with running(folder, workers=2) as srv:
        document = srv.request("GET", "/openapi.json").json()
        examples = {
            path: item["post"]["requestBody"]["content"]["application/json"].get("example", {})
            for path, item in document["paths"].items()
            if "post" in item and "{" not in path
        }
        requests = _bad_requests(examples, count=1500)

        def send(item: tuple[str, bytes, str]) -> int:
            path, body, kind = item
            return srv.request("POST", path, raw=body, headers={"Content-Type": kind}).status

        began = time.monotonic()
        with ThreadPoolExecutor(max_workers=4) as pool:
            statuses = collections.Counter(pool.map(send, requests))
        took = time.monotonic() - began
    print(f"flood: {len(requests)} bad requests in {took:.1f} s: {dict(sorted(statuses.items()))}")


def scrape_ms(srv: Server, times: int = 50) -> float:
    """Median wall time of a /metrics scrape, in milliseconds."""
    took = []
    for _ in range(times):
        began = time.perf_counter()
        assert srv.request("GET", "/metrics").status == 200
        took.append((time.perf_counter() - began) * 1000)
    return sorted(took)[len(took) // 2]


def framings(folder: Path, seconds: float = 10.0) -> None:
    with running(folder, workers=2) as srv:
        workers = srv.workers()
        statuses: collections.Counter[int | None] = collections.Counter()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for data in FRAMINGS.values():
                statuses[send(srv, data)[0]] += 1
        booted = srv.stderr.read_text().count("Booting worker") - 2
        files = len(list(srv.metrics_dir.glob("*.db")))
        print(
            f"framings: {sum(statuses.values())} malformed requests in {seconds:.0f} s from one "
            f"client: {dict(statuses)}; workers replaced {booted} "
            f"(same pids: {srv.workers() == workers}); {files} files in the metrics folder; "
            f"/metrics {scrape_ms(srv):.1f} ms"
        )


def collect_ms(metrics_dir: Path, times: int = 20) -> float:
    """Median CPU time, in milliseconds, of what /metrics does over a metrics folder."""
    from prometheus_client import CollectorRegistry, generate_latest, multiprocess

    took = []
    for _ in range(times):
        began = time.process_time()
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=str(metrics_dir))
        generate_latest(registry)
        took.append((time.process_time() - began) * 1000)
    return sorted(took)[len(took) // 2]


def recycles(folder: Path, requests: int = 300) -> None:
    cmd = "--max-requests 5 --max-requests-jitter 0"
    with running(folder, workers=2, cmd_args=cmd) as srv:
        began = time.monotonic()
        with ThreadPoolExecutor(max_workers=4) as pool:
            statuses = collections.Counter(
                pool.map(
                    lambda _: srv.request("POST", "/v1/dice/roll", ROLL).status, range(requests)
                )
            )
        took = time.monotonic() - began
        srv.wait_for_workers(2)
        booted = srv.stderr.read_text().count("Booting worker") - 2
        text = srv.request("GET", "/metrics").body.decode()
        files = sorted(path.name for path in srv.metrics_dir.glob("*.db"))
    counted = sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("firecontrol_http_requests_total{")
        and 'endpoint="/v1/dice/roll"' in line
    )
    # What the folder held before exited workers were folded in: each kept its own files.
    piled = folder / "piled"
    shutil.copytree(srv.metrics_dir, piled)
    for kind in ("counter", "histogram"):
        for number in range(booted):
            shutil.copy(piled / f"{kind}_archive.db", piled / f"{kind}_{10_000_000 + number}.db")
    print(
        f"recycles: {requests} rolls in {took:.1f} s {dict(statuses)}, {booted} workers "
        f"recycled; metrics folder {len(files)} files "
        f"({', '.join(files)}); rolls counted {counted:.0f}; collecting /metrics "
        f"{collect_ms(srv.metrics_dir):.2f} ms of CPU, against "
        f"{collect_ms(piled):.2f} ms with every exited worker's files kept "
        f"({len(list(piled.glob('*.db')))} files)"
    )


SCENARIOS = {f.__name__: f for f in (sigkill, sigterm, flood, framings, recycles)}


def main() -> int:
    chosen = sys.argv[1:] or list(SCENARIOS)
    unknown = [name for name in chosen if name not in SCENARIOS]
    if unknown:
        print(f"unknown scenarios {unknown}; choose from {list(SCENARIOS)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        for name in chosen:
            path = Path(folder) / name
            path.mkdir()
            SCENARIOS[name](path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
