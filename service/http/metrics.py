"""Prometheus metrics: requests by endpoint and status, latency, rolls by ruleset and step.

With PROMETHEUS_MULTIPROC_DIR set (gunicorn with several workers), every worker writes
its samples there and /metrics aggregates them all. deploy/gunicorn.conf.py sets that
folder before the app is imported, wipes it when the server starts and marks each dead
worker, so the live-worker gauge drops while the counts of a dead worker are kept.
"""

from __future__ import annotations

import os
import time

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

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


def count_rolls(ruleset: str | None, step: str, rolls: int) -> None:
    ROLLS.labels(ruleset or "dice", step).inc(rolls)


def init_app(app: Flask) -> None:
    @app.before_request
    def _start() -> None:
        g.started = time.perf_counter()

    @app.after_request
    def _observe(response: Response) -> Response:
        # request.url_rule is None on 404/405: one label, never the raw path.
        endpoint = request.url_rule.rule if request.url_rule else "unmatched"
        method = request.method if request.method in METHODS else "other"
        REQUESTS.labels(method, endpoint, str(response.status_code)).inc()
        started = g.get("started")
        if started is not None:
            LATENCY.labels(endpoint).observe(time.perf_counter() - started)
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
