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
