from __future__ import annotations

import functools
import itertools
import os
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Generator
from pathlib import Path

import pytest
from _pytest.nodeid import NodeId
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


# `make test` runs the suite on two workers (pytest-xdist, `-n 2 --dist loadgroup`): each test
# goes to whichever worker is free, except the members of a group, which run one after another
# on one worker. Two kinds of tests are grouped here:
# - tests that share something in the working tree: `npm ci` empties and refills
#   clients/node_modules, which the other test in the group runs tools from;
# - the tests of a module whose fixtures are module-scoped (a gunicorn, an nginx, a browser):
#   one worker starts it once, instead of each worker starting its own.
SHARED_IN_THE_TREE = {
    "clients-node-modules": (
        "tests/test_openapi_lint.py::test_redocly_recommended_lint_is_clean",
        "tests/test_generated_clients.py::test_the_typescript_client_plays_the_turn_loop",
        "tests/test_dice_peer.py::test_every_documented_form_rolls_as_rpg_dice_roller_rolls_it",
        "tests/test_dice_peer.py::test_generated_notations_roll_as_rpg_dice_roller_rolls_them",
    ),
}


def xdist_group_of(item: pytest.Item) -> str | None:
    """The group an item runs in under xdist (None: any worker, on its own)."""
    marked = sorted(
        {
            str(m.args[0] if m.args else m.kwargs.get("name", "default"))
            for m in item.iter_markers("xdist_group")
        }
    )
    if marked:
        return "_".join(marked)
    for group, nodeids in SHARED_IN_THE_TREE.items():
        if item.nodeid.split("[", 1)[0] in nodeids:
            return group
    fixture_info = getattr(item, "_fixtureinfo", None)
    if fixture_info is None:
        return None
    for definitions in fixture_info.name2fixturedefs.values():
        if any(definition.scope in ("module", "class", "package") for definition in definitions):
            return item.nodeid.split("::", 1)[0]
    return None


def set_node_id(item: pytest.Item, nodeid: str) -> None:
    # pytest 9.2 keeps an item's id as a NodeId in `_id` (it ignores the `_nodeid` that
    # pytest-xdist 3.8 and schemathesis 4.32 expect): fail loudly if that ever changes.
    item._id = NodeId.parse(nodeid)
    if item.nodeid != nodeid:
        raise pytest.UsageError(f"cannot set the node id of {item.name!r} to {nodeid!r}")


def serves(item: pytest.Item) -> bool:
    """The item is in a module that starts the real server (tests/serving_helpers.py)."""
    module = getattr(item, "module", None)
    return module is not None and any(
        getattr(value, "__module__", None) == "tests.serving_helpers"
        and getattr(value, "__name__", None) in ("start", "running")
        for value in vars(module).values()
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        # Markers for running one part (pyproject.toml lists them all; docs/testing.md).
        if item.nodeid.startswith("tests/test_contract.py::"):
            item.add_marker(pytest.mark.contract)
        if serves(item):
            item.add_marker(pytest.mark.serving)
        # schemathesis names each operation's test "test_every_operation[POST /v1/...]" but,
        # on pytest 9.2, its node id is only "test_every_operation": 59 tests with one id,
        # which pytest-xdist's scheduler would merge into one (the other 58 never run).
        if "[" in item.name and item.parent is not None and not item.nodeid.endswith(item.name):
            set_node_id(item, f"{item.parent.nodeid}::{item.name}")
    counts = Counter(item.nodeid for item in items)
    twice = sorted(nodeid for nodeid, count in counts.items() if count > 1)
    if twice:
        raise pytest.UsageError(f"tests with the same node id would be run as one: {twice}")
    # xdist's loadgroup scheduler reads a test's group from the "@group" end of its node id,
    # which xdist 3.8 cannot write on pytest 9.2: written here, on the workers only.
    # (xdist sets `loadgroup` on a worker's options from the controller's --dist.)
    if hasattr(config, "workerinput") and config.getoption("loadgroup", False):
        for item in items:
            group = xdist_group_of(item)
            if group is not None:
                set_node_id(item, f"{item.nodeid}@{group}")


# Mutation testing (tests/mutation.py runs mutmut): mutmut runs the tests in its own process
# (to map which test reaches which function) and then forks one child per mutant. A
# functools cache of the service filled before the fork (at import, or by an earlier test)
# answers the child from the unmutated code, so a mutant under a cache survives falsely;
# and a test that only hits a cache another test filled is not mapped to the code under it.
# So while mutmut runs (MUTANT_UNDER_TEST set: "stats", "fail" or a mutant's name), every
# test starts with the service's module-level caches empty. Never in a plain pytest run.
_CACHE = type(functools.lru_cache(maxsize=1)(abs))  # what @cache and @lru_cache make


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if not os.environ.get("MUTANT_UNDER_TEST"):
        return
    for name, module in list(sys.modules.items()):
        if name == "service" or name.startswith("service."):
            for value in list(vars(module).values()):
                if type(value) is _CACHE:  # not isinstance: it would wake flask's proxies
                    value.cache_clear()


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


@pytest.fixture(scope="session")
def every_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """The service serving the test rulesets (tests/fixtures/tiny_ruleset.py) beside its own:
    the checks that cover every ruleset run over them too."""
    from tests.fixtures.tiny_ruleset import EVERY

    data = tmp_path_factory.mktemp("every-app-data")
    return create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(data), "RULESETS": EVERY})
