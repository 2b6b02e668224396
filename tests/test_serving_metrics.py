"""The real server: metrics add up across workers, the request id travels, logs are JSON.

Each test starts gunicorn with deploy/gunicorn.conf.py on a free loopback port with its own
metrics folder, and stops it whatever happens.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry, generate_latest, multiprocess
from prometheus_client.mmap_dict import MmapedDict, mmap_key
from prometheus_client.parser import text_string_to_metric_families

from service.http.middleware import metrics
from tests.serving_helpers import (
    ROLL,
    Server,
    assert_one_line,
    gunicorn_command,
    refused,
    running,
    stop,
    where_read_only,
)


def samples(server: Server) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    text = server.request("GET", "/metrics").body.decode()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def labels(**pairs: str) -> frozenset[tuple[str, str]]:
    return frozenset(pairs.items())


def stale_metrics(folder: Path, count: int) -> None:
    """What a previous run would leave: the same counters, already high, from a dead pid."""
    folder.mkdir(parents=True, exist_ok=True)
    code = (
        "from service.http.middleware import metrics\n"
        f"metrics.REQUESTS.labels('POST', '/v1/dice/roll', '200').inc({count})\n"
        f"metrics.count_rolls(None, 'roll', {count})\n"
    )
    subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        timeout=60,
        cwd=Path(__file__).resolve().parent.parent,
        env={"PROMETHEUS_MULTIPROC_DIR": str(folder), "PATH": ""},
    )
    assert list(folder.glob("counter_*.db")), "the stale file was not written"


def test_every_request_is_counted_once_across_workers_and_recycled_workers(
    tmp_path: Path,
) -> None:
    stale_metrics(tmp_path / "metrics", 1000)
    rolls, listings = 150, 30
    # Three workers, each recycled after 25 requests: the counts of the dead ones must stay.
    with running(tmp_path, workers=3, cmd_args="--max-requests 25 --max-requests-jitter 0") as srv:
        first_workers = srv.workers()

        def roll(_: int) -> int:
            return srv.request("POST", "/v1/dice/roll", ROLL).status

        def listing(_: int) -> int:
            return srv.request("GET", "/v1/rulesets").status

        with ThreadPoolExecutor(max_workers=6) as pool:
            statuses = list(pool.map(roll, range(rolls))) + list(pool.map(listing, range(listings)))
        assert statuses == [200] * (rolls + listings)

        srv.wait_for_workers(3)
        assert not first_workers & srv.workers(), "no worker was recycled"
        # The dead workers' counters were folded into the archive, not left beside it.
        assert (srv.metrics_dir / "counter_archive.db").exists()
        assert len(list(srv.metrics_dir.glob("counter_*.db"))) <= 3 + 1

        found = samples(srv)
        key = labels(method="POST", endpoint="/v1/dice/roll", status="200")
        assert found[("firecontrol_http_requests_total", key)] == rolls
        assert found[("firecontrol_rolls_total", labels(ruleset="dice", step="roll"))] == rolls
        latency = labels(endpoint="/v1/dice/roll")
        assert found[("firecontrol_http_request_duration_seconds_count", latency)] == rolls
        get = labels(method="GET", endpoint="/v1/rulesets", status="200")
        assert found[("firecontrol_http_requests_total", get)] == listings
        # Dead workers are marked: the live gauge counts the workers serving now, never all
        # the workers that ever ran. The scrapes count toward --max-requests too, so a
        # worker may be recycling at this very moment: at most three, and it settles at
        # three (wait_for_workers polls the gauge until it reads exactly 3).
        assert found[("firecontrol_workers", frozenset())] <= 3
        srv.wait_for_workers(3)


def db_files(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.glob("*.db"))


def _totals(folder: Path) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=str(folder))
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in registry.collect()
        for sample in family.samples
    }


def _write(path: Path, values: dict[str, float]) -> None:
    store = MmapedDict(str(path))
    for key, value in values.items():
        store.write_value(key, value, 0.0)
    store.close()


def test_an_exited_workers_files_are_folded_into_the_archive_and_totals_kept(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    dead, crashed, live = int(done.stdout), 2**22 + 7, os.getpid()  # pids stay below 2**22
    roll = mmap_key(
        "firecontrol_rolls_total",
        "firecontrol_rolls_total",
        ["ruleset", "step"],
        ["dice", "roll"],
        "Resolved rolls",
    )
    bucket = mmap_key("t", "t_bucket", ["le"], ["0.5"], "Latency")
    total = mmap_key("t", "t_sum", [], [], "Latency")
    _write(tmp_path / "counter_archive.db", {roll: 100})
    _write(tmp_path / f"counter_{dead}.db", {roll: 7})
    _write(tmp_path / f"counter_{crashed}.db", {roll: 5})  # left by an earlier exit
    _write(tmp_path / f"counter_{live}.db", {roll: 3})
    _write(tmp_path / f"histogram_{dead}.db", {bucket: 2, total: 0.25})
    gauge = mmap_key("g", "g", [], [], "Workers")
    _write(tmp_path / f"gauge_livesum_{dead}.db", {gauge: 1})
    before = _totals(tmp_path)

    assert metrics.worker_exited(dead, str(tmp_path)) == 3

    assert db_files(tmp_path) == sorted(
        ["counter_archive.db", f"counter_{live}.db", "histogram_archive.db"]
    )
    after = _totals(tmp_path)
    rolls = ("firecontrol_rolls_total", labels(ruleset="dice", step="roll"))
    assert before[rolls] == after[rolls] == 115
    assert after[("t_sum", frozenset())] == 0.25 and after[("t_count", frozenset())] == 2
    assert {k: v for k, v in before.items() if k[0] != "g"} == after
    assert metrics.worker_exited(dead, str(tmp_path)) == 0  # nothing left to fold


def test_the_metrics_folder_stays_bounded_over_many_recycles_and_crashes(tmp_path: Path) -> None:
    workers, rounds, per_round = 2, 4, 25
    with running(
        tmp_path, workers=workers, cmd_args="--max-requests 5 --max-requests-jitter 0"
    ) as srv:
        first_workers = srv.workers()
        sizes = []
        served = 0
        with ThreadPoolExecutor(max_workers=4) as pool:
            for _ in range(rounds):
                statuses = list(
                    pool.map(
                        lambda _: srv.request("POST", "/v1/dice/roll", ROLL).status,
                        range(per_round),
                    )
                )
                assert statuses == [200] * per_round
                served += per_round
                # A crash between rounds, while no request is in hand: its counts stay.
                victim = min(srv.workers())
                os.kill(victim, signal.SIGKILL)
                srv.wait_for_workers(workers)
                sizes.append(len(db_files(srv.metrics_dir)))
        # About 100 / 5 = 20 recycles and 4 crashes went by: without folding, 48 files.
        assert len(first_workers & srv.workers()) == 0
        # Per live worker a counter, a histogram and a live gauge, the master's gauge,
        # two archives, and room for one worker exited but not yet reaped.
        bound = 3 * (workers + 1) + 1 + 2
        assert max(sizes) <= bound, (sizes, db_files(srv.metrics_dir))
        assert not list(srv.metrics_dir.glob("*.new")), db_files(srv.metrics_dir)
        found = samples(srv)
        key = labels(method="POST", endpoint="/v1/dice/roll", status="200")
        assert found[("firecontrol_http_requests_total", key)] == served
        assert found[("firecontrol_rolls_total", labels(ruleset="dice", step="roll"))] == served
        latency = labels(endpoint="/v1/dice/roll")
        assert found[("firecontrol_http_request_duration_seconds_count", latency)] == served
        buckets = [
            value
            for (name, key_), value in found.items()
            if name == "firecontrol_http_request_duration_seconds_bucket"
            and dict(key_).get("endpoint") == "/v1/dice/roll"
        ]
        assert max(buckets) == served  # the +Inf bucket, cumulated across the archive
        # Workers recycle every few requests, scrapes included: the live gauge counts the
        # ones serving at that moment, never the dead.
        assert 1 <= found[("firecontrol_workers", frozenset())] <= workers
    log = srv.stderr.read_text()
    assert "could not tidy" not in log and "Traceback" not in log, log[-3000:]


# A worker's metrics in a subprocess, the same changes before and after it forks a child,
# with ``ours`` the service's value class (service.http.middleware.metrics installs it), or else
# prometheus_client's own multiprocess values.
WORKER = """
import os, sys
if sys.argv[1] == "ours":
    import service.http.middleware.metrics
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
registry = CollectorRegistry()
most = Gauge("t_most", "Most", multiprocess_mode="max", registry=registry)
answers = Counter("t_answers", "Answers", ["status"], registry=registry)
latency = Histogram("t_latency", "Latency", ["endpoint"], buckets=(0.1, 1.0), registry=registry)
most.set(7)
answers.labels("200").inc()
answers.labels("200").inc(2.5)
latency.labels("/a").observe(0.05)
latency.labels("/a").observe(3)
child = os.fork()
if child == 0:
    latency.labels("/b").observe(0.1)
    answers.labels("200").inc()
    answers.labels("404").inc()
    most.set(2)
    os._exit(0)
os.waitpid(child, 0)
answers.labels("200").inc()
latency.labels("/a").observe(1.0)
print(os.getpid(), child)
"""


def _worker_files(tmp_path: Path, kind: str) -> tuple[dict[str, bytes], bytes]:
    """The worker's files, by kind and role, and its scrape's lines (in any order)."""
    folder = tmp_path / kind
    folder.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", WORKER, kind],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parent.parent,
        env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder)},
    )
    parent, child = done.stdout.split()
    for path in folder.glob("gauge_livesum_*.db"):
        path.unlink()  # the service's own worker gauge
    files = {
        path.name.replace(parent, "parent").replace(child, "child"): path.read_bytes()
        for path in folder.glob("*.db")
    }
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=str(folder))
    return files, b"\n".join(sorted(generate_latest(registry).splitlines()))


def test_a_workers_values_are_written_as_prometheus_clients_own(tmp_path: Path) -> None:
    """The same files, byte for byte, in a process and in the child it forks, and the
    same totals on a scrape: what the collector and the archives read is unchanged."""
    ours, ours_scrape = _worker_files(tmp_path, "ours")
    theirs, theirs_scrape = _worker_files(tmp_path, "theirs")
    assert (
        sorted(ours)
        == sorted(theirs)
        == sorted(
            f"{kind}_{role}.db"
            for kind in ("counter", "histogram", "gauge_max")
            for role in ("parent", "child")
        )
    )
    assert ours == theirs
    assert ours_scrape == theirs_scrape
    assert b't_answers_total{status="200"} 5.5' in ours_scrape


def test_the_metrics_content_type_names_its_charset_once(tmp_path: Path) -> None:
    with running(tmp_path, workers=1) as srv:
        answer = srv.request("GET", "/metrics")
    assert answer.status == 200
    kind = answer.headers["content-type"]
    assert kind.startswith("text/plain; version=") and kind.count("charset") == 1, kind


def test_a_strange_method_is_one_label_value(tmp_path: Path) -> None:
    with running(tmp_path, workers=1) as srv:
        for word in ("BREW", "WHEN", "XYZZY"):
            assert srv.request(word, "/healthz").status == 405
        found = samples(srv)
        methods = {
            dict(key)["method"]
            for name, key in found
            if name == "firecontrol_http_requests_total" and dict(key)["status"] == "405"
        }
        assert methods == {"other"}
        assert (
            found[
                (
                    "firecontrol_http_requests_total",
                    labels(method="other", endpoint="unmatched", status="405"),
                )
            ]
            == 3
        )


def test_request_id_is_returned_and_logged_as_json(tmp_path: Path) -> None:
    with running(tmp_path, workers=2) as srv:
        given = srv.request("POST", "/v1/dice/roll", ROLL, {"X-Request-Id": "table-7.turn-3"})
        assert given.status == 200 and given.headers["x-request-id"] == "table-7.turn-3"
        made = srv.request("GET", "/healthz")
        assert len(made.headers["x-request-id"]) == 32
        int(made.headers["x-request-id"], 16)
        # An id that could forge a log line is replaced, not echoed.
        forged = srv.request("GET", "/nowhere", headers={"X-Request-Id": 'x" injected="1'})
        assert forged.status == 404 and forged.headers["x-request-id"] != 'x" injected="1'
        bad = {"X-Request-Id": "bad-1", "Content-Type": "application/json"}
        refused = srv.request("POST", "/v1/dice/roll", raw=b"{", headers=bad)
        assert refused.status == 400 and refused.headers["x-request-id"] == "bad-1"
        process = srv
    assert stop(process) == 0
    lines = [json.loads(line) for line in process.stdout.read_text().splitlines()]
    by_id = {line["request_id"]: line for line in lines}
    assert by_id["table-7.turn-3"]["method"] == "POST"
    assert by_id["table-7.turn-3"]["path"] == "/v1/dice/roll"
    assert by_id["table-7.turn-3"]["status"] == 200
    assert by_id["table-7.turn-3"]["bytes"] == len(given.body)
    assert by_id[made.headers["x-request-id"]]["path"] == "/healthz"
    assert by_id[forged.headers["x-request-id"]]["status"] == 404
    assert by_id["bad-1"]["status"] == 400
    assert all(line["type"] == "access" and line["duration_ms"] >= 0 for line in lines)


@pytest.mark.parametrize("value", ["off", "OFF"])
def test_access_log_off_leaves_stdout_to_the_proxy_in_front(tmp_path: Path, value: str) -> None:
    """ACCESS_LOG=off (the pod sets it: its nginx writes the access log): gunicorn writes
    no access line, and still returns the request id for the proxy's line."""
    with running(tmp_path, workers=1, env={"ACCESS_LOG": value}) as srv:
        answer = srv.request("POST", "/v1/dice/roll", ROLL, {"X-Request-Id": "quiet-1"})
        assert answer.status == 200 and answer.headers["x-request-id"] == "quiet-1"
        assert srv.request("GET", "/nowhere").status == 404
        process = srv
    assert stop(process) == 0
    assert process.stdout.read_text() == ""
    assert "Traceback" not in process.stderr.read_text()


# --- a metrics folder that cannot be used: one line, never a traceback ------------------------

METRICS_FAULTS = {
    "a file": ("metrics", "is a file, not a folder"),
    "missing, under a file": ("file/metrics", "does not exist and cannot be made"),
}


@pytest.mark.parametrize("fault", list(METRICS_FAULTS))
def test_a_metrics_folder_that_cannot_be_used_stops_the_start_in_one_line(
    tmp_path: Path, fault: str
) -> None:
    place, says = METRICS_FAULTS[fault]
    (tmp_path / place.split("/")[0]).write_text("")
    folder = tmp_path / place
    refusal = refused(tmp_path, {"PROMETHEUS_MULTIPROC_DIR": str(folder)})
    line = assert_one_line(refusal, "PROMETHEUS_MULTIPROC_DIR")
    assert f"'{folder}' {says}" in line


def test_a_read_only_metrics_folder_stops_the_start_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "metrics"
    command = where_read_only(folder, gunicorn_command())
    refusal = refused(tmp_path, {"PROMETHEUS_MULTIPROC_DIR": str(folder)}, command)
    line = assert_one_line(refusal, "PROMETHEUS_MULTIPROC_DIR")
    assert f"'{folder}' is not writable: " in line and "emptyDir" in line


def test_a_refused_start_leaves_no_temporary_metrics_folder(tmp_path: Path) -> None:
    """Unset, the folder is a temporary one of the master's: gone however the start ends."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {"PROMETHEUS_MULTIPROC_DIR": None, "TMPDIR": str(temporary), "PORT": "none"}
    assert_one_line(refused(tmp_path, env), "PORT", "Starting gunicorn")
    assert list(temporary.iterdir()) == []


def test_the_app_refuses_a_metrics_folder_it_cannot_use_with_its_typed_error(
    tmp_path: Path,
) -> None:
    """Without gunicorn too: the error comes as the app's modules are imported."""
    (tmp_path / "metrics").write_text("")
    result = subprocess.run(
        [sys.executable, "-c", "from service import create_app; create_app()"],
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")},
    )
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("service.startup.StartupError: PROMETHEUS_MULTIPROC_DIR: "), (
        result.stderr
    )
