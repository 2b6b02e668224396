"""Test modules use the session's app (tests/conftest.py), not one of their own built while
the module is imported (four did: each a second app, its keys and its start-up cost, at
collection time, even when none of their tests ran)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def module_level_apps(path: Path) -> list[int]:
    """Lines where a module builds an app outside any function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines: list[int] = []
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "create_app":
                lines.append(node.lineno)
    return lines


def test_no_test_module_builds_an_app_at_import() -> None:
    found = {
        path.name: lines
        for path in sorted(TESTS.glob("*.py"))
        if path.name != "conftest.py" and (lines := module_level_apps(path))
    }
    assert found == {}


def test_the_check_would_catch_one(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text("from service import create_app\nAPP = create_app({'TESTING': True})\n")
    assert module_level_apps(sample) == [2]
