"""A gunicorn worker's CPU per request with its access log on and off (ACCESS_LOG).

    .venv/bin/python bench/access_log_cpu.py                # 12 batches of 1,000 straddles
    .venv/bin/python bench/access_log_cpu.py --batches 30 --path /v1/dice/roll

Two servers of one worker each (deploy/gunicorn.conf.py, stdout to a file), one per
setting, side by side; batches of the endpoint's documented example go to one and then
the other, in turn, so the machine's drift falls on both, and each batch reads its
worker's user + system CPU from /proc before and after. The figure is CPU per
request (the client's own CPU is not counted), the least and the median of the batches.
A new connection per request, as gunicorn's sync worker closes each. Linux only. Not part
of ``make test``.
"""

from __future__ import annotations

import argparse
import functools
import http.client
import json
import os
import statistics
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.serving_helpers import Server, start, stop  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def example(server: Server, path: str) -> bytes:
    document = server.request("GET", "/openapi.json").json()
    post = document["paths"][path]["post"]
    return json.dumps(post["requestBody"]["content"]["application/json"]["example"]).encode()


def send(port: int, path: str, body: bytes, count: int) -> int:
    failed = 0
    for _ in range(count):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request("POST", path, body, {"Content-Type": "application/json"})
            answer = conn.getresponse()
            answer.read()
            failed += answer.status != 200
        finally:
            conn.close()
    return failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default="/v1/rulesets/salvo-solo/straddle")
    parser.add_argument("--batch", type=int, default=1000, help="requests a batch")
    parser.add_argument("--batches", type=int, default=12, help="batches a server")
    args = parser.parse_args()
    figures: dict[str, list[float]] = {"on": [], "off": []}
    with tempfile.TemporaryDirectory(prefix="fire-control-bench-") as tmp:
        servers = {}
        try:
            for setting in figures:
                folder = Path(tmp) / setting
                folder.mkdir()
                servers[setting] = start(folder, workers=1, env={"ACCESS_LOG": setting})
            body = example(servers["on"], args.path)
            for server in servers.values():
                assert send(server.port, args.path, body, 200) == 0  # warm each worker
            # Batch by batch, one server then the other (in turn first), so that the
            # machine's drift falls on both alike; 2 client threads, on loopback.
            for number in range(args.batches):
                order = ("on", "off") if number % 2 == 0 else ("off", "on")
                for setting in order:
                    server = servers[setting]
                    [worker] = server.workers()
                    before = cpu_seconds(worker)
                    load = functools.partial(send, server.port, args.path, body)
                    with ThreadPoolExecutor(2) as pool:
                        failed = sum(pool.map(load, [args.batch // 2] * 2))
                    assert failed == 0, f"{failed} answers were not 200"
                    spent = cpu_seconds(worker) - before
                    figures[setting].append(spent / (args.batch // 2 * 2) * 1e6)
            lines = len(servers["on"].stdout.read_text().splitlines())
            assert lines >= args.batch * args.batches and not servers["off"].stdout.read_text()
        finally:
            for server in servers.values():
                stop(server)
    # The least of the batches is the figure least moved by the machine's other work; the
    # median is given beside it.
    for name, pick in (("least", min), ("median", statistics.median)):
        on, off = pick(figures["on"]), pick(figures["off"])
        print(
            f"{args.path}: worker CPU per request, {name} of {args.batches} batches of "
            f"{args.batch}: on {on:.0f} us, off {off:.0f} us, the access log "
            f"{on - off:.0f} us ({(on - off) / on:.0%} of the worker's CPU)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
