"""The referee's page asks /odds for an entry's luck under the readings the answer was signed
with (its echoed ``rules``, defaults included), not whatever defaults the service has now,
and within the service's own limits (what the page asks in a browser, and how often, is in
tests/test_referee_page.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service import MAX_BODY_BYTES
from service.receipts.checking import MAX_LOG_ENTRIES

REFEREE = Path(__file__).resolve().parent.parent / "service" / "static" / "referee"
NODE = shutil.which("node")


def _odds_request(document: dict[str, Any]) -> dict[str, Any]:
    script = (
        "import { oddsRequest } from './explain.js';"
        "const doc = JSON.parse(process.argv[1]);"
        "console.log(JSON.stringify(oddsRequest(doc)));"
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script, json.dumps(document)],
        cwd=REFEREE,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    found: dict[str, Any] = json.loads(done.stdout)
    return found


@pytest.mark.skipif(NODE is None, reason="needs node to run the page's module")
def test_luck_is_asked_under_the_signed_readings(client: FlaskClient) -> None:
    body = {"target": {"ship": "Lion"}, "throw": "double 8", "dice": {"seed": "l", "nonce": 1}}
    answer = client.post("/v1/rulesets/dreadnought/critical", json=body).get_json()
    # a request that chose nothing: the answer still names every reading in force
    assert answer["rules"]["blow-up-who"] == "pre-dreadnought-only"
    request = _odds_request(answer)
    assert request["path"] == "/v1/rulesets/dreadnought/critical/odds"
    sent = json.loads(request["body"])
    assert sent == {"target": {"ship": "Lion"}, "throw": "double 8", "rules": answer["rules"]}
    odds = client.post(request["path"], json=sent)
    assert odds.status_code == 200
    assert odds.get_json()["rules"] == answer["rules"]


def _page_limits() -> dict[str, int]:
    script = (
        "import { MAX_ODDS_BODY_BYTES, MAX_ODDS_PER_LOG } from './explain.js';"
        "import { MAX_LOG_ENTRIES } from './verify.js';"
        "console.log(JSON.stringify({ MAX_ODDS_BODY_BYTES, MAX_ODDS_PER_LOG, MAX_LOG_ENTRIES }));"
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        cwd=REFEREE,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    found: dict[str, int] = json.loads(done.stdout)
    return found


@pytest.mark.skipif(NODE is None, reason="needs node to run the page's module")
def test_the_page_never_asks_odds_the_service_would_refuse_unread() -> None:
    """The page's odds limits against the service's: its body limit, the log's length, and
    the number the docs give."""
    limits = _page_limits()
    assert limits["MAX_ODDS_BODY_BYTES"] == MAX_BODY_BYTES
    assert limits["MAX_LOG_ENTRIES"] == MAX_LOG_ENTRIES
    # Below the log's length, or a log could never reach it.
    assert 0 < limits["MAX_ODDS_PER_LOG"] < MAX_LOG_ENTRIES
    docs = (REFEREE.parent.parent.parent / "docs" / "verifiable-rolls.md").read_text()
    assert f"asks at most {limits['MAX_ODDS_PER_LOG']} for one log" in docs


@pytest.mark.skipif(NODE is None, reason="needs node to run the page's module")
def test_the_page_says_each_mark_of_a_rich_roll(client: FlaskClient) -> None:
    """A penetrating explosion, critical marks and a unique reroll, in the page's words."""
    body = {"notation": "3d6!pcs=6cf=1u", "dice": {"values": [6, 1, 1, 3, 4]}}
    answer = client.post("/v1/dice/roll", json=body).get_json()
    script = (
        "import { termLines } from './explain.js';"
        "console.log(JSON.stringify(termLines(JSON.parse(process.argv[1]))));"
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script, json.dumps(answer)],
        cwd=REFEREE,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    (line,) = json.loads(done.stdout)
    # 6 explodes penetrating into a 3 (counts 2); the third die's 1 is the second's value,
    # so the unique reroll replaces it with a 4
    assert line == (
        "3d6!pucs6cf1: die 1 shows 6, kept, exploded, penetrating, a critical success; "
        "die 2 shows 1, kept, a critical failure; die 3 shows 1, rerolled; "
        "die 4 (explosion of die 1) shows 3, counts 2, kept; "
        "die 5 (unique reroll of die 3) shows 4, kept; kept dice sum to 13"
    )
