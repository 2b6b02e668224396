"""Clients generated from the document the service serves play whole games, as an app would.

The README's section "Use it from an app" is the script: its shell commands are run here as
written (against a gunicorn server on loopback, in a temporary copy of clients/python and
clients/typescript), and its code excerpts must be slices of the files that run.

- Python: openapi-python-client (pinned in requirements.lock) generates a client from
  `GET /openapi.json`; clients/python/play_game.py, which uses only that client, passes
  `mypy --strict` and plays a seeded salvo-solo game to its end, a salvo-grid battle of the
  computer against itself, a dreadnought and a fleet-action step and a dice roll, and has the
  service verify the salvo-solo game log and each other answer, handed back as received.
- TypeScript: openapi-typescript and openapi-fetch (pinned in clients/package-lock.json,
  installed with `npm ci`) type clients/typescript/play.ts, which `tsc --strict` compiles and
  node runs: the salvo-solo turn loop, then the game log verified.

Without node and npm the TypeScript test is skipped with a hint, except in CI.
"""

from __future__ import annotations

import ast
import configparser
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.serving_helpers import Server, running

pytestmark = pytest.mark.clients

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CLIENTS = ROOT / "clients"
PYTHON_FILES = ("play_game.py", "mypy.ini")
TYPESCRIPT_FILES = ("play.ts", "tsconfig.json", "package.json")
README_URL = "http://localhost:8080"
BIN = Path(sys.executable).parent
STEP_TIMEOUT = 300


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false")


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## Use it from an app\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _blocks(language: str, under: str) -> list[str]:
    """The fenced blocks of one language in the README section's subsection ``under``."""
    section = _section()
    start = section.index(f"\n### {under}\n")
    end = section.find("\n### ", start + 1)
    part = section[start : end if end != -1 else len(section)]
    return re.findall(rf"```{language}\n(.*?)```", part, flags=re.DOTALL)


ACTIVATE = [".", ".venv/bin/activate"]


def _all_commands(under: str) -> list[list[str]]:
    """The README's shell commands for one client, continuation lines joined, comments
    dropped."""
    joined = "\n".join(_blocks("sh", under)).replace("\\\n", " ")
    found = []
    for line in joined.splitlines():
        words = shlex.split(line, comments=True)
        while words:
            end = words.index("&&") if "&&" in words else len(words)
            argv, words = words[:end], words[end + 1 :]
            if argv:
                found.append(argv)
    return found


def _commands(under: str) -> list[list[str]]:
    """The commands that run a client: ``cd`` dropped (each test runs in its own copy of the
    folder), and the venv's activation, which these tests stand in for by putting this
    interpreter's bin folder first on PATH."""
    return [argv for argv in _all_commands(under) if argv[0] != "cd" and argv != ACTIVATE]


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=STEP_TIMEOUT
    )
    assert done.returncode == 0, f"{shlex.join(argv)}\n{done.stdout[-6000:]}\n{done.stderr[-6000:]}"
    return done


def _is_excerpt(block: str, source: str) -> bool:
    """``block`` is a run of whole consecutive lines of ``source``, indentation aside."""
    wanted = textwrap.dedent(block).strip("\n").splitlines()
    lines = source.splitlines()
    for start in range(len(lines) - len(wanted) + 1):
        window = "\n".join(lines[start : start + len(wanted)])
        if textwrap.dedent(window).splitlines() == wanted:
            return True
    return False


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("clients-server"), workers=1) as found:
        yield found


def _with_server(argv: list[str], server: Server) -> list[str]:
    base = f"http://127.0.0.1:{server.port}"
    return [arg.replace(README_URL, base) for arg in argv]


# --- Python -------------------------------------------------------------------------------


def test_the_python_script_uses_only_the_generated_client_and_no_escape_hatch() -> None:
    source = (CLIENTS / "python" / "play_game.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module.split(".")[0])
    # The standard library's plumbing, and for the service only the generated client.
    assert modules <= {"__future__", "hashlib", "sys", "typing", "fire_control_client"}, modules
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert not names & {"Any", "cast", "from_dict", "to_dict", "additional_properties"}
    assert "type: ignore" not in source


def test_mypy_is_strict_on_the_script_and_lets_off_only_the_generators_httpx_wrapper() -> None:
    config = configparser.ConfigParser()
    config.read(CLIENTS / "python" / "mypy.ini", encoding="utf-8")
    assert config.sections() == ["mypy", "mypy-fire_control_client.client"]
    assert dict(config["mypy"]) == {"strict": "True"}
    assert dict(config["mypy-fire_control_client.client"]) == {"ignore_errors": "True"}


def test_the_python_client_plays_whole_games(server: Server, tmp_path: Path) -> None:
    work = tmp_path / "python"
    work.mkdir()
    for name in PYTHON_FILES:
        shutil.copy(CLIENTS / "python" / name, work / name)
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)
    env["MYPY_CACHE_DIR"] = str(tmp_path / "mypy-cache")
    # From the repository's root, the venv activated before anything runs from it.
    assert _all_commands("Python")[:2] == [ACTIVATE, ["cd", "clients/python"]]
    commands = _commands("Python")
    assert [argv[0] for argv in commands] == ["openapi-python-client", "mypy", "python"]
    generate, typecheck, play = (_with_server(argv, server) for argv in commands)

    _run(generate, work, env)
    assert (work / "fire_control_client" / "api" / "salvo_solo" / "salvo_solo_turn.py").is_file()
    checked = _run(typecheck, work, env)
    assert "Success: no issues found" in checked.stdout

    played = _run(play, work, env).stdout
    turns = re.search(r"^salvo-solo over after (\d+) turns: (player|enemy|draw)", played, re.M)
    assert turns, played
    assert f"verified {turns.group(1)} receipts" in played
    assert "verified 4 single answers" in played
    assert re.search(r"^salvo-grid over after \d+ rounds: (captain [ab]|draw)$", played, re.M)
    assert re.search(r"^dreadnought fire: \w+ range, needs \d+, hit (True|False)$", played, re.M)
    assert re.search(r"^fleet-action fire: \d+ hits", played, re.M)
    assert re.search(r"^3d6: \d+$", played, re.M)


def test_the_readme_shows_the_python_loop_that_runs() -> None:
    source = (CLIENTS / "python" / "play_game.py").read_text(encoding="utf-8")
    blocks = _blocks("python", "Python")
    assert blocks and "salvo_solo_turn.sync" in "".join(blocks)
    for block in blocks:
        assert _is_excerpt(block, source), block


# --- TypeScript ---------------------------------------------------------------------------


def _npm() -> str:
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        message = "node or npm is missing: install Node.js 20+ and npm (apt-get install nodejs npm)"
        if _in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return npm


def _installed_from_the_lock() -> bool:
    """node_modules holds exactly the committed lock (npm's own record of what it laid out)."""
    hidden = CLIENTS / "node_modules" / ".package-lock.json"
    if not hidden.is_file():
        return False
    locked: dict[str, object] = json.loads(
        (CLIENTS / "package-lock.json").read_text(encoding="utf-8")
    )["packages"]
    laid: dict[str, object] = json.loads(hidden.read_text(encoding="utf-8"))["packages"]
    return laid == {path: entry for path, entry in locked.items() if path}


def test_the_typescript_client_plays_the_turn_loop(server: Server, tmp_path: Path) -> None:
    npm = _npm()
    env = {
        **os.environ,
        "NO_UPDATE_NOTIFIER": "1",
        "REDOCLY_TELEMETRY": "off",
        "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true",
    }
    commands = _commands("TypeScript")
    assert commands[0] == ["npm", "ci"], commands
    if not _installed_from_the_lock():
        _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], CLIENTS, env)
    work = tmp_path / "typescript"
    work.mkdir()
    for name in TYPESCRIPT_FILES:
        shutil.copy(CLIENTS / "typescript" / name, work / name)
    (work / "node_modules").symlink_to(CLIENTS / "node_modules", target_is_directory=True)

    rest = [_with_server(argv, server) for argv in commands[1:]]
    assert [argv[:2] for argv in rest] == [
        ["npx", "openapi-typescript"],
        ["npx", "tsc"],
        ["node", "dist/play.js"],
    ]
    generate, compile_, play = rest
    assert "--strict" in compile_
    for argv in (generate, compile_):
        _run([str(work / "node_modules" / ".bin" / argv[1]), *argv[2:]], work, env)
    played = _run(play, work, env).stdout
    turns = re.search(r"^game over after (\d+) turns: (player|enemy|draw)", played, re.M)
    assert turns, played
    assert f"verified {turns.group(1)} receipts" in played


def test_the_readme_shows_the_typescript_loop_that_runs() -> None:
    source = (CLIENTS / "typescript" / "play.ts").read_text(encoding="utf-8")
    blocks = _blocks("ts", "TypeScript")
    assert blocks and 'client.POST("/v1/rulesets/salvo-solo/turn"' in "".join(blocks)
    for block in blocks:
        assert _is_excerpt(block, source), block
