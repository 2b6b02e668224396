"""Prometheus metrics: requests by endpoint and status, latency, rolls by ruleset and step.

With PROMETHEUS_MULTIPROC_DIR set (gunicorn with several workers), every worker writes
its samples there and /metrics aggregates them all. deploy/gunicorn.conf.py sets that
folder before the app is imported, wipes it when the server starts and marks each dead
worker, so the live-worker gauge drops while the counts of a dead worker are kept.
"""

from __future__ import annotations

import os
import time
from typing import Any

from flask import Flask, Response, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from .request_id import STARTED

REQUESTS = Counter(
    "firecontrol_http_requests_total",
    "HTTP requests by endpoint and status",
    ["method", "endpoint", "status"],
)
LATENCY = Histogram(
    "firecontrol_http_request_duration_seconds",
    "Time to answer a request",
    ["endpoint"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)
ROLLS = Counter(
    "firecontrol_rolls_total", "Resolved rolls by ruleset and step", ["ruleset", "step"]
)
# livesum: only the files of live workers count, so a killed worker leaves the sum once
# the server marks it dead.
WORKERS = Gauge(
    "firecontrol_workers", "Server workers alive and serving", multiprocess_mode="livesum"
)

# The method is the client's free text: any other word is counted as one label value, so a
# client cannot grow the number of series (the same reason the raw path is never a label).
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def worker_started() -> None:
    """Called once in each server worker (gunicorn's post_worker_init)."""
    WORKERS.set(1)


# Label children looked up once: prometheus_client's labels() costs a few microseconds
# a call, on every request. The keys are bounded (rules, METHODS, status codes, steps).
_REQUEST_SERIES: dict[tuple[str, str, str], tuple[Any, Any]] = {}
_ROLL_SERIES: dict[tuple[str, str], Any] = {}


def count_rolls(ruleset: str | None, step: str, rolls: int) -> None:
    key = (ruleset or "dice", step)
    series = _ROLL_SERIES.get(key)
    if series is None:
        series = _ROLL_SERIES[key] = ROLLS.labels(*key)
    series.inc(rolls)


def _request_series(method: str, endpoint: str, status: str) -> tuple[Any, Any]:
    key = (method, endpoint, status)
    series = _REQUEST_SERIES.get(key)
    if series is None:
        series = _REQUEST_SERIES[key] = (REQUESTS.labels(*key), LATENCY.labels(endpoint))
    return series


def init_app(app: Flask) -> None:
    @app.after_request
    def _observe(response: Response) -> Response:
        # request.url_rule is None on 404/405: one label, never the raw path.
        endpoint = request.url_rule.rule if request.url_rule else "unmatched"
        method = request.method if request.method in METHODS else "other"
        requests, latency = _request_series(method, endpoint, str(response.status_code))
        requests.inc()
        # Timed from the outermost layer (the request-id middleware), so the time Flask
        # takes to set the request up is counted too.
        started = request.environ.get(STARTED)
        if started is not None:
            latency.observe(time.perf_counter() - started)
        return response

    @app.get("/metrics")
    def metrics() -> Response:
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
            body = generate_latest(registry)
        else:
            body = generate_latest()
        return Response(body, mimetype=CONTENT_TYPE_LATEST)
