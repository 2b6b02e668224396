"""schemathesis.toml, as the schemathesis CLI reads it against a live server."""

from __future__ import annotations

from pathlib import Path

import schemathesis
from flask import Flask
from schemathesis.config import SchemathesisConfig

ROOT = Path(__file__).resolve().parent.parent


def expected_statuses(app: Flask, path: str, check: str = "positive_data_acceptance") -> list[str]:
    config = SchemathesisConfig.from_path(ROOT / "schemathesis.toml")
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app, config=config)
    operation = schema[path]["POST"]
    checks = schema.config.checks_config_for(operation=operation)
    return list(getattr(checks, check).expected_statuses)


def test_the_documented_409_of_reveal_is_expected_there_and_only_there(app: Flask) -> None:
    document = app.test_client().get("/openapi.json").get_json()
    assert "409" in document["paths"]["/v1/seeds/reveal"]["post"]["responses"]
    assert "409" in expected_statuses(app, "/v1/seeds/reveal")
    assert "409" not in expected_statuses(app, "/v1/dice/roll")
    assert {"2xx", "404", "422"} <= set(expected_statuses(app, "/v1/dice/roll"))


def test_a_body_refused_for_its_size_counts_as_rejected_negative_data(app: Flask) -> None:
    document = app.test_client().get("/openapi.json").get_json()
    assert "413" in document["paths"]["/v1/rulesets/dreadnought/torpedo"]["post"]["responses"]
    rejections = expected_statuses(app, "/v1/dice/roll", "negative_data_rejection")
    assert "413" in rejections and {"400", "422"} <= set(rejections)
