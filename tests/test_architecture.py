"""The rules engine is pure: no web framework, no schema library, no metrics."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parent.parent / "service"
FORBIDDEN = ("flask", "flask_smorest", "flask_cors", "marshmallow", "webargs", "prometheus_client")


def engine_modules() -> list[Path]:
    """The engine core and every ruleset's rules; a ruleset's HTTP face lives in api.py."""
    paths = list((SERVICE / "engine").rglob("*.py"))
    paths += [p for p in (SERVICE / "rulesets").rglob("*.py") if p.name != "api.py"]
    return paths


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level
            and node.module
            and ".http" in f".{node.module}"
        ):
            names.add("service.http")
    return names


def test_engine_imports_no_web_or_metrics_library() -> None:
    modules = engine_modules()
    assert len(modules) > 5
    offenders = {
        str(p.relative_to(SERVICE)): sorted(imported(p) & {*FORBIDDEN, "service.http"})
        for p in modules
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_check_would_catch_an_import(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("import flask\nfrom marshmallow import Schema\nfrom ...http import x\n")
    assert {"flask", "marshmallow", "service.http"} <= imported(sample)


def test_every_registered_ruleset_is_a_folder_with_its_parts() -> None:
    from service.rulesets import REGISTERED

    for name in REGISTERED:
        folder = SERVICE / "rulesets" / name
        assert (folder / "api.py").is_file(), name
        assert (folder / "__init__.py").is_file(), name
