from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import Generator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app

# The service makes its signing and sealing keys on first start in FIRECONTROL_DATA_DIR,
# "var" in the working folder by default: never let a test write keys into the repository.
# Every app a test builds gets a folder of its own in a temporary directory: each test
# module while it is imported (module-level APP = create_app(...)), then each test. Tests
# that pass FIRECONTROL_DATA_DIR in the app config, and the real servers of
# tests/serving_helpers.py, choose their own.
_DATA_ROOT = Path(tempfile.mkdtemp(prefix="fire-control-test-data-"))
_NUMBERS = itertools.count()


def _new_data_folder(kind: str) -> str:
    # Not created until an app needs it: most never make keys.
    return str(_DATA_ROOT / f"{kind}-{next(_NUMBERS)}")


os.environ["FIRECONTROL_DATA_DIR"] = _new_data_folder("conftest")


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, object, object]:
    if isinstance(collector, pytest.Module):  # the module is imported inside this hook
        os.environ["FIRECONTROL_DATA_DIR"] = _new_data_folder("module")
    return (yield)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    shutil.rmtree(_DATA_ROOT, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIRECONTROL_DATA_DIR", _new_data_folder("test"))


@pytest.fixture(scope="session")
def app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    data = tmp_path_factory.mktemp("app-data")
    return create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(data)})


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()
