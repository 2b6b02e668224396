"""Mutation testing, one module at a time: ``make mutation`` (or ``MODULE=salvo-solo``).

mutmut reads its settings from the ``pyproject.toml`` of the folder it runs in, and keeps its
results there (``mutants/``), so each module gets a folder of its own under
``var/mutation/<module>``: a copy of the project, and a ``pyproject.toml`` holding the shared
``[tool.mutmut]`` settings plus that module's files to mutate and the tests that guard them
(``[tool.fire-control.mutation.<module>]`` in the project's ``pyproject.toml``).

Results stay in that folder between runs: a second run tests only the mutants not yet
tested, or those of functions changed since. ``--fresh`` (or deleting the folder) starts the
module over: do that to measure scores, since a resumed run keeps the first run's map of
which tests reach which function.

    python -m tests.mutation                 # every module, in the order configured
    python -m tests.mutation salvo-solo      # one module
    python -m tests.mutation --list          # the modules and their tests
    python -m tests.mutation --scores        # the scores so far, per file
    python -m tests.mutation salvo-solo --retest-survivors   # after adding tests
    python -m tests.mutation salvo-solo --fresh   # start over (how the scores are measured)

Not part of ``make test``: a module takes minutes to an hour.
"""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "var" / "mutation"
COPIED = ("service", "tests", "docs", "tools", "deploy")
COPIED_FILES = ("openapi.yaml", "schemathesis.toml")


def settings() -> tuple[dict[str, Any], dict[str, Any], dict[str, dict[str, Any]]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    tool = project["tool"]
    return tool["pytest"], tool["mutmut"], tool["fire-control"]["mutation"]


def toml_value(value: Any) -> str:
    """Strings, numbers, booleans and lists of them: their JSON form is valid TOML."""
    return json.dumps(value, ensure_ascii=False)


def toml_table(name: str, table: dict[str, Any]) -> str:
    lines = [f"[{name}]"]
    lines += [f"{key} = {toml_value(value)}" for key, value in table.items()]
    return "\n".join(lines) + "\n"


def prepare(
    module: str, pytest_cfg: dict[str, Any], shared: dict[str, Any], own: dict[str, Any]
) -> Path:
    """The module's folder: the project's files as they are now, and its own settings."""
    folder = WORK / module
    folder.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        # Copied afresh each run, so a file deleted or renamed in the project (a module split
        # in two) does not linger here; copytree keeps modification times, so mutmut still
        # sees which files changed, and keeps the verdicts of functions that did not.
        shutil.rmtree(folder / name, ignore_errors=True)
        shutil.copytree(
            ROOT / name,
            folder / name,
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
        )
    for name in COPIED_FILES:
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, folder / name)
    mutmut = {
        **shared,
        "only_mutate": own["mutate"],
        "do_not_mutate": own.get("skip", []),
        "pytest_add_cli_args_test_selection": own["tests"],
    }
    text = toml_table("tool.pytest.ini_options", pytest_cfg["ini_options"])
    text += "\n" + toml_table("tool.mutmut", mutmut)
    target = folder / "pyproject.toml"
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")
    return folder


def mutated_files(module: str, own: dict[str, Any]) -> list[tuple[str, Path]]:
    """The module's files that mutmut keeps results for, as configured now (a file the
    module no longer mutates may still have results in its folder from an earlier run)."""
    mutants = WORK / module / "mutants"
    found = []
    for meta in sorted(mutants.rglob("*.py.meta")):
        path = str(meta.relative_to(mutants))[: -len(".meta")]
        mutated = any(fnmatch.fnmatch(path, pattern) for pattern in own["mutate"])
        if mutated and not any(fnmatch.fnmatch(path, p) for p in own.get("skip", [])):
            found.append((path, meta))
    return found


def scores(module: str, own: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per mutated file: how many mutants ended each way."""
    from mutmut.stats import status_by_exit_code

    found: dict[str, dict[str, int]] = {}
    for path, meta in mutated_files(module, own):
        data = json.loads(meta.read_text(encoding="utf-8"))
        counts: dict[str, int] = {}
        for code in data.get("exit_code_by_key", {}).values():
            status = status_by_exit_code[code]
            counts[status] = counts.get(status, 0) + 1
        if counts:
            found[path] = counts
    return found


def print_scores(module: str, own: dict[str, Any]) -> None:
    for path, counts in scores(module, own).items():
        killed = counts.get("killed", 0) + counts.get("timeout", 0)
        checked = sum(n for status, n in counts.items() if status != "not checked")
        share = f"{100 * killed / checked:.1f}%" if checked else "-"
        detail = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        print(f"  {path}: {killed}/{checked} killed ({share}); {detail}")


def survivors(module: str, own: dict[str, Any]) -> list[str]:
    """The mutants that survived the last run of this module, by name."""
    names = []
    for _, meta in mutated_files(module, own):
        data = json.loads(meta.read_text(encoding="utf-8"))
        names += [name for name, code in data.get("exit_code_by_key", {}).items() if code == 0]
    return names


def run(module: str, jobs: int, *, retest: bool = False, fresh: bool = False) -> int:
    pytest_cfg, shared, modules = settings()
    own = modules[module]
    if fresh:
        # mutmut maps each test to the functions it reached when the folder was first run,
        # and a later run keeps that map: a test that reaches a function only since (code
        # moved into a new function) is not run against its mutants. Scores are measured
        # from a fresh folder.
        shutil.rmtree(WORK / module, ignore_errors=True)
    folder = prepare(module, pytest_cfg, shared, own)
    mutmut = Path(sys.executable).with_name("mutmut")
    print(f"== {module}: mutating {', '.join(own['mutate'])}", flush=True)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    # mutmut keeps a survivor's verdict until asked by name: after adding tests, ask.
    names = survivors(module, own) if retest else []
    if retest and not names:
        print(f"== {module}: no survivors to test again")
        return 0
    command = [str(mutmut), "run", "--max-children", str(jobs), *names]
    code = subprocess.call(command, cwd=folder, env=env)
    print(f"== {module}: results so far")
    print_scores(module, own)
    return code


def main(argv: list[str]) -> int:
    _, _, modules = settings()
    jobs = int(os.environ.get("MUTATION_JOBS", "1"))
    if "--list" in argv:
        for name, own in modules.items():
            skipped = f" (not {' '.join(own['skip'])})" if own.get("skip") else ""
            print(
                f"{name}: {' '.join(own['mutate'])}{skipped}\n    tests: {' '.join(own['tests'])}"
            )
        return 0
    if "--scores" in argv:
        for name, own in modules.items():
            print(name)
            print_scores(name, own)
        return 0
    chosen = [a for a in argv if not a.startswith("-")] or list(modules)
    unknown = [name for name in chosen if name not in modules]
    if unknown:
        print(f"unknown module {unknown[0]!r}; one of: {', '.join(modules)}", file=sys.stderr)
        return 2
    failed = 0
    for name in chosen:
        retest, fresh = "--retest-survivors" in argv, "--fresh" in argv
        failed |= run(name, jobs, retest=retest, fresh=fresh) != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
