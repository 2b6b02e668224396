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


def package_of(path: Path) -> tuple[str, ...]:
    """The package a module's relative imports start from (a sample outside service/ stands
    for a module of service/http itself)."""
    if not path.is_relative_to(SERVICE):
        return ("service", "http")
    return path.relative_to(SERVICE.parent).parts[:-1]


def rulesets_imported(path: Path, package: tuple[str, ...] | None = None) -> list[str]:
    """The imports of a module of service/http that reach into service/rulesets (absolute,
    or relative: ``..rulesets`` from service/http, ``...rulesets`` from a subpackage of
    it), anywhere in it (inside a function too)."""
    package = package or package_of(path)
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("service.rulesets")]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 0:
                named = module
            elif node.level <= len(package):  # ``.`` is the module's own package
                base = package[: len(package) - node.level + 1]
                named = ".".join((*base, module) if module else base)
            else:
                continue
            wanted = [f"{named}.{a.name}".removeprefix(".") for a in node.names]
            found += [name for name in (named, *wanted) if name.startswith("service.rulesets")]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
            and any("rulesets" in ast.unparse(arg) for arg in node.args)
        ):
            found.append("import_module(...rulesets...)")
    return sorted(set(found))


def test_the_http_layer_imports_nothing_from_the_rulesets() -> None:
    """service/http serves the rulesets an app is given (create_app resolves the default
    set): an import back up into service/rulesets would let it read the registry."""
    modules = sorted((SERVICE / "http").rglob("*.py"))
    assert len(modules) > 10
    offenders = {str(p.relative_to(SERVICE)): rulesets_imported(p) for p in modules}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_rulesets_check_would_catch_an_import(tmp_path: Path) -> None:
    for line in (
        "from ..rulesets import REGISTERED",
        "from .. import rulesets",
        "from service.rulesets.salvo_solo import RULESET",
        "import service.rulesets",
        "def f():\n    from ..rulesets import registered",
        'importlib.import_module(f"..rulesets.{name}", __package__)',
    ):
        sample = tmp_path / "bad.py"
        sample.write_text(line + "\n")
        assert rulesets_imported(sample), line
    sample.write_text("from ..engine.ruleset import Ruleset\nfrom .contract import load\n")
    assert rulesets_imported(sample) == []
    in_a_subpackage = ("service", "http", "endpoints")
    sample.write_text("from ...rulesets import REGISTERED\n")
    assert rulesets_imported(sample, in_a_subpackage) == [
        "service.rulesets",
        "service.rulesets.REGISTERED",
    ]
    sample.write_text("from ..rulesets import x\nfrom ...engine.ruleset import Ruleset\n")
    assert rulesets_imported(sample, in_a_subpackage) == []


def test_every_registered_ruleset_is_a_folder_with_its_parts() -> None:
    from service.rulesets import REGISTERED

    for name in REGISTERED:
        folder = SERVICE / "rulesets" / name
        assert (folder / "api.py").is_file(), name
        assert (folder / "__init__.py").is_file(), name
