"""The fault tests' scenarios again, with their figures printed (the tests only assert).

    .venv/bin/python bench/faults.py

1. SIGKILL one of two workers under 4 clients' steady load: requests lost, time until a
   replacement serves, requests served after.
2. SIGTERM the master while both workers hold a half-sent request: do both finish, and how
   long the shutdown takes.
3. A flood of bad bodies: the statuses it got.
"""

from __future__ import annotations

import collections
import os
import signal
import socket
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.serving_helpers import roll_request, running  # noqa: E402
from tests.test_faults_server import Load, _bad_requests, _listen_queue, wait_until  # noqa: E402


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


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        for scenario in (sigkill, sigterm, flood):
            path = Path(folder) / scenario.__name__
            path.mkdir()
            scenario(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
