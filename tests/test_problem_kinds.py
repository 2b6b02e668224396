"""One table of problem kinds (service/engine/errors.py) that everything else reads.

The engine's errors, the HTTP layer's status mapping, the ``/problems`` page and the
nginx sidecar's own error answers all name their ``type`` from ``PROBLEM_KINDS``. Before
the table, the page had drifted from the answers: a 415 (unsupported-media-type), the
sidecar's 408 (request-timeout) and the fallback ``error`` pointed at anchors the page did
not have.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from service.engine import errors
from service.engine.errors import KIND_OF_STATUS, KINDS, PROBLEM_KINDS
from service.receipts.sealing import SealError

ROOT = Path(__file__).resolve().parent.parent
NGINX = ROOT / "deploy" / "k8s" / "base" / "nginx.conf"


def _anchors(page: str) -> set[str]:
    return set(re.findall(r'<dt id="([a-z-]+)">', page))


def test_kind_ids_are_unique_and_each_status_has_at_most_one_generic_kind() -> None:
    ids = [kind.id for kind in PROBLEM_KINDS]
    assert len(ids) == len(set(ids))
    generic = [s for kind in PROBLEM_KINDS if kind.generic for s in kind.statuses]
    assert len(generic) == len(set(generic))
    assert KIND_OF_STATUS[422] == "validation" and KIND_OF_STATUS[404] == "not-found"


def test_the_page_lists_every_kind_of_the_table_once(client: FlaskClient) -> None:
    page = client.get("/problems").get_data(as_text=True)
    found = re.findall(r'<dt id="([a-z-]+)">', page)
    assert sorted(found) == sorted(kind.id for kind in PROBLEM_KINDS)


@pytest.mark.parametrize(
    ("method", "path", "kwargs"),
    [
        ("post", "/v1/dice/roll", {"data": "x", "content_type": "text/plain"}),  # 415
        ("post", "/v1/dice/roll", {"data": "{", "content_type": "application/json"}),  # 400
        ("get", "/v1/no-such-thing", {}),  # 404
        ("delete", "/v1/dice/roll", {}),  # 405
        ("post", "/v1/dice/roll", {"json": {"notation": 7}}),  # 422
    ],
)
def test_every_answer_type_has_its_anchor_on_the_page(
    client: FlaskClient, method: str, path: str, kwargs: dict[str, object]
) -> None:
    answer = getattr(client, method)(path, **kwargs)
    kind = answer.get_json()["type"].removeprefix("/problems#")
    assert kind in _anchors(client.get("/problems").get_data(as_text=True)), kind
    assert answer.status_code in KINDS[kind].statuses


def test_engine_errors_take_kind_and_title_from_the_table() -> None:
    for error in (errors.RuleError, errors.DiceError, errors.LimitError, SealError):
        assert error.kind in KINDS
    for error in (errors.RuleError, errors.DiceError, errors.LimitError):
        assert error.title == KINDS[error.kind].title != ""


def test_no_module_spells_a_kind_the_table_lacks() -> None:
    """A kind written as a literal (``kind = "..."``, ``problem(status, "...")``) is in the
    table, so the page cannot miss it."""
    spelled: set[str] = set()
    for path in (ROOT / "service").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "problem"
                and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
            ):
                spelled.add(str(node.args[1].value))
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if (
                        isinstance(item, ast.Assign)
                        and [getattr(t, "id", None) for t in item.targets] == ["kind"]
                        and isinstance(item.value, ast.Constant)
                        and any(getattr(b, "id", "").endswith("Error") for b in node.bases)
                    ):
                        spelled.add(str(item.value.value))
    assert spelled <= set(KINDS), spelled - set(KINDS)


def test_the_sidecar_answers_with_the_kinds_of_the_table() -> None:
    """nginx writes its own problems from a map of status to kind: each is a table kind of
    that status, and every kind the table gives the sidecar alone is in the map."""
    text = NGINX.read_text(encoding="utf-8")
    block = re.search(r"map \$status \$fc_problem_type \{(.*?)\}", text, re.S)
    assert block is not None
    mapped: dict[str, str] = dict(re.findall(r"^\s*(\w+)\s+([a-z-]+);", block.group(1), re.M))
    assert mapped.pop("default") == errors.FALLBACK_KIND
    for status, kind in mapped.items():
        assert int(status) in KINDS[kind].statuses, (status, kind)
    sidecar_only = {kind.id for kind in PROBLEM_KINDS if kind.sidecar}
    assert sidecar_only <= set(mapped.values())
