"""A soak: 60 s at 64 connections on the production config, every step's example in turn.

    make load
    .venv/bin/python bench/load.py --duration 60 --connections 64

Passes when no request failed and memory stayed flat: each process's proportional set
size (PSS, which shares the preloaded app's pages fairly between master and workers) is
sampled every 2 s; the last quarter of the run may not sit more than 10% above the first
quarter after warm-up. Needs wrk (Debian: apt-get install -y wrk). Not part of `make test`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import endpoints, kind_of, wrk  # noqa: E402
from tests.serving_helpers import Server, start, stop  # noqa: E402

SAMPLE_EVERY = 2.0
ALLOWED_GROWTH = 0.10


def pss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


class Sampler(threading.Thread):
    """Total PSS of the master and its workers, every SAMPLE_EVERY seconds."""

    def __init__(self, server: Server) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.samples: list[tuple[float, int, dict[int, int]]] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        began = time.monotonic()
        while not self.stopping.wait(SAMPLE_EVERY):
            pids = [self.server.process.pid, *sorted(self.server.workers())]
            sizes = {pid: size for pid in pids if (size := pss_kib(pid)) is not None}
            self.samples.append((time.monotonic() - began, sum(sizes.values()), sizes))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=60)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install -y wrk)", file=sys.stderr)
        return 2

    folder = Path(tempfile.mkdtemp(prefix="fire-control-load-"))
    server = start(folder, workers=args.workers)
    try:
        chosen = [(p, b) for p, b in endpoints(server, None) if kind_of(p) != "odds"]
        rotation = folder / "requests.tsv"
        rotation.write_text("".join(f"{p}\t{json.dumps(b)}\n" for p, b in chosen))
        workers_before = server.workers()
        sampler = Sampler(server)
        sampler.start()
        run, output = wrk(
            f"http://127.0.0.1:{server.port}",
            "mixed.lua",
            str(rotation),
            args.duration,
            args.connections,
            args.threads,
        )
        sampler.stopping.set()
        sampler.join()
        workers_after = server.workers()
        counted = server.metric("firecontrol_workers")
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)

    print(output)
    print(f"{len(chosen)} endpoints in rotation, {args.workers} sync workers")
    print(f"workers replaced during the run: {len(workers_before - workers_after)}")
    print(f"live-worker gauge at the end: {counted}")
    quarter = max(1, len(sampler.samples) // 4)
    warm = sampler.samples[1 : 1 + quarter]  # the first sample is still warming up
    late = sampler.samples[-quarter:]
    first = statistics.mean(total for _, total, _ in warm)
    last = statistics.mean(total for _, total, _ in late)
    peak = max(total for _, total, _ in sampler.samples)
    print("\nt (s) | total PSS (MiB) | per process (MiB)")
    for at, total, sizes in sampler.samples:
        per = ", ".join(f"{size / 1024:.1f}" for size in sizes.values())
        print(f"{at:5.0f} | {total / 1024:6.1f} | {per}")
    growth = (last - first) / first
    print(
        f"\nPSS: {first / 1024:.1f} MiB early, {last / 1024:.1f} MiB late "
        f"({growth:+.1%}), peak {peak / 1024:.1f} MiB"
    )
    print(f"requests/s {run.rps:,.0f}, p50 {run.p50_ms:.2f} ms, p99 {run.p99_ms:.2f} ms")
    print(f"non-2xx: {run.non_2xx}, socket errors: {run.socket_errors}")
    failed = run.non_2xx or run.socket_errors or growth > ALLOWED_GROWTH
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
