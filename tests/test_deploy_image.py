"""The container, checked without a Docker engine.

hadolint lints the Dockerfile; the image's own entry command, environment and health
check run here from the same config and must serve; the image's lock holds the runtime
dependencies only, pinned as in requirements.lock.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import tomllib
from pathlib import Path

from tests.serving_helpers import BIN, ROLL, ROOT, running

DOCKERFILE = ROOT / "Dockerfile"


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = pending + stripped
        pending = ""
        word, _, rest = whole.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def final_stage() -> list[tuple[str, str]]:
    steps = instructions(DOCKERFILE.read_text())
    last_from = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last_from:]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for word, rest in final_stage():
        if word == "ENV":
            for pair in shlex.split(rest):
                key, _, value = pair.partition("=")
                env[key] = value
    return env


def exec_form(word: str) -> list[str]:
    found = [rest for w, rest in final_stage() if w == word]
    assert len(found) == 1, f"one {word} in the final stage"
    rest = found[0]
    if word == "HEALTHCHECK":
        rest = rest[rest.index("CMD ") + len("CMD ") :]
    command = json.loads(rest)
    assert isinstance(command, list), f"{word} in exec form (JSON array)"
    return [str(part) for part in command]


def hadolint(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "hadolint"), "--no-color", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_hadolint_passes_on_the_dockerfile() -> None:
    result = hadolint(DOCKERFILE)
    assert result.returncode == 0, result.stdout + result.stderr


def test_hadolint_does_catch_a_careless_dockerfile(tmp_path: Path) -> None:
    careless = tmp_path / "Dockerfile"
    careless.write_text("FROM python:latest\nRUN apt-get update && apt-get install curl\n")
    result = hadolint(careless)
    assert result.returncode != 0
    assert "DL3007" in result.stdout and "DL3008" in result.stdout


def test_the_image_is_multi_stage_slim_and_runs_as_a_user_with_no_root() -> None:
    steps = instructions(DOCKERFILE.read_text())
    froms = [rest for word, rest in steps if word == "FROM"]
    assert len(froms) >= 2 and "AS build" in froms[0]
    base = dict(rest.split("=", 1) for word, rest in steps if word == "ARG" and "=" in rest).get(
        "PYTHON_IMAGE", ""
    )
    assert re.fullmatch(r"python:3\.\d+(\.\d+)?-slim-\w+", base), base
    final = final_stage()
    users = [rest for word, rest in final if word == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert [rest for word, rest in final if word == "EXPOSE"] == [image_env()["PORT"]]
    # Only the build stage's results are copied in: no compiler, pip or test tool comes along.
    copies = [rest for word, rest in final if word == "COPY"]
    assert copies and all(c.startswith("--from=build ") for c in copies), copies
    assert not [rest for word, rest in final if word == "RUN" and "pip install" in rest]


def test_everything_the_build_copies_is_in_the_build_context() -> None:
    ignore = (ROOT / ".dockerignore").read_text().splitlines()
    allowed = [line[1:].rstrip("/") for line in ignore if line.startswith("!")]
    assert "*" in ignore, "the context starts from nothing"
    for word, rest in instructions(DOCKERFILE.read_text()):
        if word == "COPY" and not rest.startswith("--from"):
            source = rest.split()[0].rstrip("/")
            assert (ROOT / source).exists(), source
            assert source in allowed, f"{source} is left out by .dockerignore"


def _pins(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==")
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version.strip()
    return pins


def _names(requirements: list[str]) -> set[str]:
    return {re.sub(r"[-_.]+", "-", re.split(r"[<>=!~ \[;]", r)[0]).lower() for r in requirements}


def test_the_image_lock_holds_the_runtime_dependencies_only() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = _pins(ROOT / "requirements" / "runtime.lock")
    everything = _pins(ROOT / "requirements.lock")
    missing = _names(project["dependencies"]) - set(runtime)
    assert not missing, f"run `make lock-runtime`: {missing} not in requirements/runtime.lock"
    drift = {n: (v, everything.get(n)) for n, v in runtime.items() if everything.get(n) != v}
    assert not drift, f"run `make lock-runtime`: pins differ from requirements.lock: {drift}"
    tools = _names(project["optional-dependencies"]["test"])
    assert not tools & set(runtime), tools & set(runtime)


def test_the_image_entry_command_serves_from_the_same_config(tmp_path: Path) -> None:
    workers = 2
    env = image_env()
    entry = exec_form("ENTRYPOINT")
    assert entry[0] == "gunicorn" and "deploy/gunicorn.conf.py" in entry
    workdir = [rest for word, rest in final_stage() if word == "WORKDIR"][-1]
    assert workdir == "/app"  # the image copies service/ and deploy/ there, as in the repo
    # The image's environment, but a free port, private folders and this venv.
    env.pop("PATH")
    env.pop("PROMETHEUS_MULTIPROC_DIR")
    env.pop("PORT")
    env["FIRECONTROL_DATA_DIR"] = str(tmp_path / "data")
    env["WEB_CONCURRENCY"] = str(workers)
    command = [str(BIN / entry[0]), *entry[1:]]
    with running(tmp_path, workers=workers, command=command, env=env) as srv:
        assert srv.request("GET", "/readyz").json() == {"status": "ready"}
        answer = srv.request("POST", "/v1/dice/roll", ROLL)
        assert answer.status == 200 and answer.json()["result"]["notation"] == "3d6"
        # The image's HEALTHCHECK, as written, against this server.
        check = exec_form("HEALTHCHECK")
        assert check[0] == "python"
        result = subprocess.run(
            [str(BIN / "python"), *check[1:]],
            env={"PORT": str(srv.port)},
            capture_output=True,
            timeout=30,
            check=False,
        )
        assert result.returncode == 0, result.stderr
    # The same check fails once nothing listens: it does check something.
    result = subprocess.run(
        [str(BIN / "python"), *check[1:]],
        env={"PORT": str(srv.port)},
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert result.returncode != 0
