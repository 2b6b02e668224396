"""`make test` runs pytest on two workers (pytest-xdist, `-n 2 --dist loadgroup`): every test
still runs, once, and the tests of a module with a module-scoped fixture (a server, a browser)
share one worker. Checked on a small suite of its own run the way `make test` runs ours, with
tests/conftest.py's hooks; the node ids of this session's own tests are checked too."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import SHARED_IN_THE_TREE

ROOT = Path(__file__).resolve().parent.parent

SERVED = """
import os
from pathlib import Path

import pytest

RUNS = Path(os.environ["RUNS"])


@pytest.fixture(scope="module")
def server() -> int:
    (RUNS / f"started-{os.environ['PYTEST_XDIST_WORKER']}").touch()
    return os.getpid()


@pytest.mark.parametrize("n", range(6))
def test_served(server: int, n: int) -> None:
    (RUNS / f"served-{n}").write_text(str(server))


@pytest.mark.parametrize("n", range(6))
def test_alone(n: int) -> None:
    (RUNS / f"alone-{n}").write_text(os.environ["PYTEST_XDIST_WORKER"])
"""

CONTRACT = """
import os
from pathlib import Path

import schemathesis
from hypothesis import settings

RUNS = Path(os.environ["RUNS"])
ANSWER = {"200": {"description": "ok"}}
SCHEMA = schemathesis.openapi.from_dict(
    {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            f"/{name}": {"get": {"responses": ANSWER}} for name in ("a", "b", "c", "d")
        },
    }
)


@SCHEMA.parametrize()
@settings(max_examples=1, database=None)
def test_operation(case) -> None:
    (RUNS / ("operation" + case.operation.path.replace("/", "-"))).touch()
"""


def test_every_test_of_this_session_has_a_node_id_of_its_own(
    request: pytest.FixtureRequest,
) -> None:
    counts = Counter(item.nodeid for item in request.session.items)
    assert [nodeid for nodeid, count in counts.items() if count > 1] == []


def test_two_workers_run_every_test_once_and_a_module_fixture_once(tmp_path: Path) -> None:
    suite, runs = tmp_path / "suite", tmp_path / "runs"
    suite.mkdir()
    runs.mkdir()
    (suite / "pytest.ini").write_text("[pytest]\n")
    (suite / "test_served.py").write_text(textwrap.dedent(SERVED))
    (suite / "test_contract.py").write_text(textwrap.dedent(CONTRACT))
    env = {**os.environ, "RUNS": str(runs), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider"]
        + ["-n", "2", "--dist", "loadgroup", "-q", str(suite)],
        cwd=suite,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "16 passed" in done.stdout, done.stdout
    made = sorted(path.name for path in runs.iterdir())
    # Each of the four operations ran (with one node id for all four, xdist ran one).
    assert [name for name in made if name.startswith("operation")] == [
        "operation-a",
        "operation-b",
        "operation-c",
        "operation-d",
    ]
    # The module's fixture started once, on one worker, which ran all six of its tests.
    assert len([name for name in made if name.startswith("started-")]) == 1
    assert len({(runs / f"served-{n}").read_text() for n in range(6)}) == 1
    assert all((runs / f"alone-{n}").exists() for n in range(6))


def test_the_tests_grouped_for_the_working_tree_exist() -> None:
    """A renamed test would silently leave its group (and race the other over node_modules)."""
    for nodeids in SHARED_IN_THE_TREE.values():
        for nodeid in nodeids:
            path, name = nodeid.split("::")
            tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
            assert name in {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
