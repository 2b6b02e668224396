"""The README's walkthroughs run as written: "Verify a roll" and the sealed seed.

Every fenced ``sh`` block of those sections runs, in order, in one bash per section (its
variables carry from block to block, as in a reader's shell), against a real server
(gunicorn, tests/serving_helpers.py) on a free port in place of localhost:8080, in a fresh
folder holding the project's tools/. Then the files the reader made are checked: a legal
game (the fire straddles before the straddle is rolled), and logs that both verifiers call
valid. curl, jq and openssl are needed (.ci/run installs them); without them the test
skips, in CI it fails.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import in_ci
from tests.serving_helpers import Server, running

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
TOOLS = ("curl", "jq", "openssl", "sha256sum")


def section(title: str) -> str:
    """The text under a heading, up to the next heading of its level or above (a `#` in a
    fenced block is a shell comment, not a heading)."""
    level = len(title.split(" ", 1)[0])
    lines = README.splitlines(keepends=True)
    start = lines.index(f"{title}\n") + 1
    fenced = False
    for at in range(start, len(lines)):
        line = lines[at]
        fenced ^= line.startswith("```")
        marks = len(line) - len(line.lstrip("#"))
        if not fenced and 1 <= marks <= level and line[marks : marks + 1] == " ":
            return "".join(lines[start:at])
    return "".join(lines[start:])


def blocks(text: str) -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


VERIFY = section("## Verify a roll").split("\n### ")[0]  # without its sealed subsection
SEALED = section("### A sealed seed, from the seal to the reveal")
WHOLE = section("### A whole game, from the first roll to the verdict")
MINIMAL = section("### Smaller answers: the request pinned by its digest")


def readme_server(
    tmp_path_factory: pytest.TempPathFactory, folder: str, tools: tuple[str, ...]
) -> Iterator[Server]:
    """A real server for a README section's commands, which need ``tools`` on the PATH
    (skipped without them, failed in CI)."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        names = " ".join(missing)
        message = f"the README examples need {names}: apt-get install -y {names}"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    with running(tmp_path_factory.mktemp(folder), workers=1) as found:
        yield found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from readme_server(tmp_path_factory, "readme-server", TOOLS)


def run(server: Server, folder: Path, commands: list[str]) -> str:
    (folder / "tools").symlink_to(ROOT / "tools")
    script = "\n".join(commands).replace("localhost:8080", f"127.0.0.1:{server.port}")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    return done.stdout


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def test_the_sections_hold_the_commands() -> None:
    assert len(blocks(VERIFY)) == 2 and len(blocks(SEALED)) == 2
    assert "/referee" in VERIFY and "docs/referee.png" in VERIFY
    assert "/referee" in SEALED


def test_verify_a_roll_plays_a_legal_game_that_both_verifiers_call_valid(
    server: Server, tmp_path: Path
) -> None:
    out = run(server, tmp_path, blocks(VERIFY))
    fire, straddle, special = (load(tmp_path / f"turn{n}.json") for n in (1, 2, 3))
    assert fire["result"]["straddle"] is True  # so the Straddle table is rolled next
    assert straddle["result"]["roll_next"] == "special-damage"  # and then Special Damage
    assert special["step"] == "special-damage"
    game = load(tmp_path / "game.json")
    assert len(game) == 3
    verdict, end = json.JSONDecoder().raw_decode(out)  # curl prints no newline after it
    tool = out[end:]
    assert verdict["valid"] is True and verdict["log"]["problems"] == []
    assert verdict["log"]["ends_with"]["nonce"] == 3
    # The comments in the README are what the reader sees.
    for line in re.findall(r"^# (entry .*|verdict: .*)$", blocks(VERIFY)[1], re.MULTILINE):
        assert line in tool
    assert "signatures NOT checked" not in tool


def test_the_sealed_walkthrough_runs_from_the_seal_to_the_reveal(
    server: Server, tmp_path: Path
) -> None:
    out = run(server, tmp_path, blocks(SEALED))
    log = load(tmp_path / "sealed-game.json")
    assert [entry.get("step") for entry in log] == [None, "attack", "attack"]
    assert log[0]["client_seed_sha256"] is not None  # the client seed is bound
    assert all(entry["dice"]["mode"] == "sealed" for entry in log[1:])
    revealed = load(tmp_path / "revealed.json")
    assert revealed["commitment"] == log[0]["commitment"] and revealed["seed"]
    assert out.rstrip().endswith("verdict: VALID")
    assert "# verdict: VALID" in blocks(SEALED)[1]
    # The dice are the sealed seed's: one roll when the attack missed, two when it straddled.
    rolls = len(log[1]["rolls"])
    assert f"entry 2 salvo-solo/attack: ok, {rolls} rolls match" in out
    assert "entry 2 salvo-solo/attack: ok, 1 rolls match" in blocks(SEALED)[1]
    answer = server.request("POST", "/v1/receipts/verify", body=log)
    assert answer.status == 200 and answer.json()["valid"] is True


def test_the_whole_game_walkthrough_plays_to_the_end_and_is_valid(
    server: Server, tmp_path: Path
) -> None:
    out = run(server, tmp_path, blocks(WHOLE))
    log = load(tmp_path / "whole-game.json")
    assert log[0]["step"] == "game-header" and log[0]["rules"]["straddle-21-plus"] == "no-effect"
    assert log[-1]["result"]["game_over"] is True
    assert all(entry["rules"] == log[0]["rules"] for entry in log)
    assert any("pending" in entry.get("result", {}) for entry in log)  # a turn waited
    # Each Action sent is one the rules allow: the pending turn's choices, when it waited.
    for asked, finished in zip(log, log[1:], strict=False):
        pending = asked.get("result", {}).get("pending")
        if pending:
            assert finished["provenance"]["request"]["body"]["player_action"] in pending["choices"]
    assert '{"verdict":"valid","log":[]}' in out and out.rstrip().endswith("verdict: VALID")
    for line in re.findall(r"^# (.*)$", blocks(WHOLE)[1], re.MULTILINE):
        assert line in out


def test_the_minimal_walkthrough_pins_the_request_the_client_can_check(
    server: Server, tmp_path: Path
) -> None:
    (block,) = blocks(MINIMAL)
    out = run(server, tmp_path, [block]).splitlines()
    answer = load(tmp_path / "answer.json")
    assert "body" not in answer["provenance"]["request"]
    # the digest the client works out from its own request is the one the answer signs
    assert out[-2] == out[-1] == answer["provenance"]["request"]["rest_sha256"]
    for line in re.findall(r"^# (.*)$", block, re.MULTILINE):
        assert line in out
    verdict = server.request("POST", "/v1/receipts/verify", body=answer)
    assert verdict.status == 200 and verdict.json()["valid"] is True
