"""The rulesets an app serves live with the app (``app.extensions``), as its keys do.

Before, they were a module global of service/http/meta.py, filled by every create_app of
the process: an app could not serve anything but what all of them shared, and emptying
the app's own registry changed nothing.
"""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.http import meta
from service.rulesets import REGISTERED


def test_the_app_holds_every_registered_ruleset(app: Flask) -> None:
    held = app.extensions[meta.EXTENSION]
    assert sorted(held) == sorted(name.replace("_", "-") for name in REGISTERED)
    assert not hasattr(meta, "RULESETS")


def test_what_the_app_holds_is_what_it_serves(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = dict(app.extensions[meta.EXTENSION])
    monkeypatch.setitem(app.extensions, meta.EXTENSION, {"dreadnought": held["dreadnought"]})
    listed = client.get("/v1/rulesets").get_json()["rulesets"]
    assert [r["id"] for r in listed] == ["dreadnought"]
    assert client.get("/v1/rulesets/salvo-solo").status_code == 404
    assert client.get("/v1/rulesets/dreadnought").status_code == 200
    assert client.get("/readyz").get_json() == {"status": "ready"}


def test_an_app_with_no_ruleset_is_not_ready(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(app.extensions, meta.EXTENSION, {})
    assert client.get("/readyz").get_json() == {"status": "starting"}
    assert client.get("/v1/rulesets").get_json() == {"rulesets": []}
