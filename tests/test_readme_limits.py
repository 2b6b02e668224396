"""Every limit the README and docs/*.md state is the one the code applies.

Each check reads a number from the docs' own sentence (a pattern around the words that
name the limit, whitespace and line breaks ignored, "1,000" read as 1000) and compares it
with the constant the service imports, so a limit changed in the code and not in the
docs, or the other way round, fails here. A sentence that no longer reads as the pattern
fails too: reword the pattern with the sentence, never drop the check.
"""

from __future__ import annotations

import ast
import gzip
import re
from pathlib import Path

import pytest

from service import MAX_BODY_BYTES, create_app
from service.engine import dice as engine_dice
from service.engine import notation
from service.engine.budget import REQUEST_MS
from service.engine.errors import LimitError
from service.http.endpoints import seeds
from service.http.fast import problems
from service.http.fast.jsonbody import BYTES_PER_OBJECT, MAX_BODY_OBJECTS, MAX_OBJECT_MEMBERS
from service.receipts import checking
from service.rulesets.dreadnought import turn as dreadnought_turn
from service.rulesets.dreadnought import turn_odds as dreadnought_odds
from service.rulesets.fleet_action import tables as fleet_action_tables
from service.rulesets.salvo_solo import advice, odds

ROOT = Path(__file__).resolve().parent.parent
NGINX_CONF = (ROOT / "deploy" / "k8s" / "base" / "nginx.conf").read_text(encoding="utf-8")
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
NUMBER = r"(\d[\d,]*)"


def prose(name: str) -> str:
    """A document's text with every run of whitespace one space."""
    return " ".join((ROOT / name).read_text(encoding="utf-8").split())


def stated(name: str, pattern: str) -> list[int]:
    """Every number ``pattern`` (with ``NUMBER`` in it) finds in document ``name``, in any
    case (a sentence may start with the words)."""
    found = [int(n.replace(",", "")) for n in re.findall(pattern, prose(name), re.IGNORECASE)]
    assert found, f"{name} no longer says {pattern!r}: reword the pattern with the sentence"
    return found


def nginx_values(directive: str) -> list[str]:
    """The values of a directive in the sidecar's config, in the order it sets them."""
    return [
        m.group(1).strip()
        for m in re.finditer(rf"^\s*{directive}\s+([^;]+);", NGINX_CONF, re.MULTILINE)
    ]


def nginx(directive: str) -> str:
    """The value of a directive the sidecar's config sets once."""
    values = nginx_values(directive)
    assert len(values) == 1, (directive, values)
    return values[0]


def gunicorn_setting(name: str) -> object:
    tree = ast.parse(GUNICORN_CONF.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            name
        ]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"deploy/gunicorn.conf.py sets no {name}")


def kilobytes(value: str) -> int:
    match = re.fullmatch(r"(\d+)([km]?)", value)
    assert match, value
    number, unit = match.groups()
    return int(number) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit] // 1024


# --- what a request may hold, and the advisor's counts ----------------------------------

# (document, the sentence's pattern, the limit the code applies)
LIMITS = [
    ("README.md", rf"a body of at most {NUMBER} KiB", MAX_BODY_BYTES // 1024),
    ("README.md", rf"\| body \| {NUMBER} KB \(the service's own\)", MAX_BODY_BYTES // 1024),
    ("README.md", rf"an object of at most {NUMBER} members", MAX_OBJECT_MEMBERS),
    ("README.md", rf"opening at most one object per {NUMBER} bytes", BYTES_PER_OBJECT),
    ("README.md", rf"per 16 bytes of it and {NUMBER} in all", MAX_BODY_OBJECTS),
    ("README.md", rf"a die of \d+ to {NUMBER} sides", engine_dice.MAX_SIDES),
    ("README.md", rf"at most {NUMBER} dice per request", engine_dice.MAX_DICE_PER_REQUEST),
    ("README.md", rf"{NUMBER} in a `/v1/dice/roll` notation", notation.MAX_NOTATION_DICE),
    ("README.md", rf"`/odds` at most {NUMBER} dice branches", engine_dice.MAX_ODDS_BRANCHES),
    ("README.md", rf"rerolled or exploded at least {NUMBER} times", notation.MIN_CAP),
    ("README.md", rf"and at most {NUMBER} \(rpg-dice-roller's cap\)", notation.PEER_CAP),
    ("README.md", rf"at most {NUMBER} dice drawn", notation.MAX_NOTATION_DRAWS),
    ("README.md", rf"the odds within a work budget of\s+about {NUMBER} ms", REQUEST_MS),
    ("README.md", rf"within a work budget of about {NUMBER} ms of CPU", REQUEST_MS),
    ("docs/dice.md", rf"the request's work budget \(about {NUMBER} ms", REQUEST_MS),
    ("docs/dice.md", rf"work budget of about {NUMBER} ms of CPU", REQUEST_MS),
    ("README.md", rf"naming each bad field \(at most {NUMBER};", problems.MAX_FIELD_ERRORS),
    ("README.md", rf"An action holds at most {NUMBER} ships", dreadnought_turn.MAX_SHIPS),
    ("README.md", rf"at most {NUMBER} torpedo salvoes", dreadnought_turn.MAX_SALVOES),
    ("README.md", rf"orders are at most {NUMBER} characters", dreadnought_turn.MAX_PLOT),
    ("README.md", rf"combine in at most {NUMBER} branches", dreadnought_odds.BRANCH_LIMIT),
    ("README.md", rf"else from {NUMBER} seeded games", dreadnought_odds.GAMES),
    (
        "docs/dreadnought-turn.md",
        rf"could pass {NUMBER} branches",
        dreadnought_odds.BRANCH_LIMIT,
    ),
    ("docs/dreadnought-turn.md", rf"\*\*seeded games\*\*: {NUMBER} turns", dreadnought_odds.GAMES),
    ("docs/dreadnought-turn.md", rf"a count out of {NUMBER}", dreadnought_odds.GAMES),
    ("docs/dice.md", rf"A die has \d+ to {NUMBER} sides", engine_dice.MAX_SIDES),
    ("docs/dice.md", rf"rolls at most {NUMBER} dice in all", engine_dice.MAX_DICE_PER_REQUEST),
    (
        "docs/dice.md",
        rf"at most {NUMBER} dice in all and a constant",
        notation.MAX_NOTATION_DICE,
    ),
    (
        "docs/dice.md",
        rf"a constant of at most {NUMBER} either way",
        notation.MAX_NOTATION_CONSTANT,
    ),
    ("docs/dice.md", rf"a notation of at most {NUMBER} characters", notation.MAX_NOTATION_LENGTH),
    ("docs/dice.md", rf"never before {NUMBER} links", notation.MIN_CAP),
    ("docs/dice.md", rf"never past {NUMBER} \(rpg-dice-roller's cap\)", notation.PEER_CAP),
    ("docs/dice.md", rf"each chain's cap is {NUMBER}", notation.MIN_CAP),
    ("docs/dice.md", rf"could draw more than {NUMBER} dice", notation.MAX_NOTATION_DRAWS),
    ("docs/dice.md", rf"a compare point\) is at most {NUMBER} either way", engine_dice.MAX_SIDES),
    ("docs/dice.md", rf"a keep or drop counts at most {NUMBER} dice", notation.MAX_NOTATION_DRAWS),
    ("docs/dice.md", rf"at most {NUMBER} entries in a log", checking.MAX_LOG_ENTRIES),
    ("docs/dice.md", rf"{NUMBER} dice in a whole document", checking.MAX_DOCUMENT_DICE),
    ("docs/dice.md", rf"a 422 past {NUMBER} branches", engine_dice.MAX_ODDS_BRANCHES),
    ("docs/verifiable-rolls.md", rf"a log of at most {NUMBER} entries", checking.MAX_LOG_ENTRIES),
    ("docs/verifiable-rolls.md", rf"at most {NUMBER} dice in all", checking.MAX_DOCUMENT_DICE),
    ("docs/verifiable-rolls.md", rf"\({NUMBER} dice a request", engine_dice.MAX_DICE_PER_REQUEST),
    ("docs/verifiable-rolls.md", rf"\d+ to {NUMBER} sides per die", engine_dice.MAX_SIDES),
    ("docs/verifiable-rolls.md", rf"seeds of \d+ to {NUMBER} characters", checking.MAX_SEED),
    ("docs/verifiable-rolls.md", rf"lists at most {NUMBER} problems", checking.MAX_ENTRY_PROBLEMS),
    ("docs/verifiable-rolls.md", rf"problems and the log {NUMBER}", checking.MAX_LOG_PROBLEMS),
    ("docs/verifiable-rolls.md", rf"cut to {NUMBER} characters", checking.MAX_ECHO),
    (
        "docs/rulings.md",
        rf"At most {NUMBER} rounds are rolled",
        fleet_action_tables.MAX_INITIATIVE_ROUNDS,
    ),
    (
        "README.md",
        rf"An action has at most {NUMBER} ships a player",
        fleet_action_tables.MAX_SHIPS_PER_SIDE,
    ),
    (
        "README.md",
        rf"while the walk stays within {NUMBER} branches",
        fleet_action_tables.TURN_ODDS_BRANCHES,
    ),
    ("README.md", rf"otherwise {NUMBER} seeded games", fleet_action_tables.TURN_ODDS_SAMPLES),
]


@pytest.mark.parametrize(
    ("document", "pattern", "limit"),
    LIMITS,
    ids=[f"{doc}: {pattern.replace(NUMBER, 'N')}" for doc, pattern, _ in LIMITS],
)
def test_a_stated_limit_is_the_codes(document: str, pattern: str, limit: int) -> None:
    found = stated(document, pattern)
    assert found == [limit] * len(found), f"{document} says {found}, the code {limit}"


def test_the_smallest_die_the_docs_state_is_the_smallest_the_engine_rolls() -> None:
    smallest = {
        *stated("README.md", rf"a die of {NUMBER} to \d+ sides"),
        *stated("docs/dice.md", rf"A die has {NUMBER} to \d+ sides"),
        *stated("docs/verifiable-rolls.md", rf"{NUMBER} to \d+ sides per die"),
    }
    assert len(smallest) == 1
    (sides,) = smallest
    source = engine_dice.DiceSource()
    source.admit("die", 1, sides)
    with pytest.raises(LimitError):
        source.admit("die", 1, sides - 1)


def test_a_problem_quotes_as_many_errors_as_the_readme_says() -> None:
    words = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
    found = re.findall(r"`detail` quotes the first (\w+)", prose("README.md"))
    assert [words[w] for w in found] == [problems.DETAIL_QUOTES]


def test_a_sealed_seed_waits_a_day_by_default_and_a_year_at_most() -> None:
    text = prose("docs/verifiable-rolls.md")
    assert '{"reveal_in": seconds}` (default one day, at most a year)' in text
    assert seeds.DEFAULT_REVEAL_IN == 24 * 3600
    assert 365 * 24 * 3600 <= seeds.MAX_REVEAL_IN <= 366 * 24 * 3600
    assert "a day by default" in prose("README.md")


# --- the advisor's caches ----------------------------------------------------------------


def test_the_advisors_caches_are_as_large_as_docs_advice_says() -> None:
    per_cache = stated("docs/advice.md", rf"{NUMBER} entries per cache")
    families = stated("docs/advice.md", rf"{NUMBER} families")
    caches = [odds._table, odds._counts, advice._cached_choices, advice._shot_choices]
    assert per_cache == [odds.STEP_ODDS_CACHE]
    assert {cache.cache_parameters()["maxsize"] for cache in caches} == {odds.STEP_ODDS_CACHE}
    assert families == [odds.MAX_FAMILIES] == [odds._learnt.cache_parameters()["maxsize"]]


# --- the sidecar's limits and the production section ---------------------------------------


def sidecar_row(limit: str) -> str:
    rows = re.findall(rf"^\| {re.escape(limit)} \| (.*?) \|", raw_text("README.md"), re.M)
    assert len(rows) == 1, f"README.md's sidecar table has no row {limit!r}"
    return str(rows[0])


def raw_text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def test_the_sidecar_table_states_the_shipped_nginx_config() -> None:
    body = sidecar_row("body")
    every, verify = nginx_values("client_max_body_size")  # the server's, the verifier's
    assert body.startswith(f"{kilobytes(every)} KB ")
    assert f"{kilobytes(verify) // 1024} MB on `/v1/receipts/verify`" in body
    count, size = nginx("large_client_header_buffers").split()
    assert sidecar_row("request line; one header; all headers") == (
        f"{kilobytes(size)} KB; {kilobytes(size)} KB; {int(count) * kilobytes(size)} KB"
    )
    rate = re.search(r"zone=per_client:\S+ rate=(\d+)r/s", NGINX_CONF)
    burst = set(re.findall(r"limit_req zone=per_client burst=(\d+)", NGINX_CONF))
    assert rate and len(burst) == 1
    assert sidecar_row("requests per client address, per pod") == (
        f"{rate.group(1)} a second, bursts of {burst.pop()}"
    )
    timeouts = {
        nginx(name) for name in ("client_header_timeout", "client_body_timeout", "send_timeout")
    }
    assert len(timeouts) == 1
    assert sidecar_row("time to send the headers, the body, to read the answer") == (
        f"{timeouts.pop().removesuffix('s')} s each"
    )
    assert sidecar_row("time for the service to answer") == (
        f"{nginx('proxy_read_timeout').removesuffix('s')} s "
        f"(a worker silent for {gunicorn_setting('timeout')} s is replaced)"
    )


def test_the_readme_says_how_large_a_turn_answer_is_and_from_what_size_it_is_gzipped() -> None:
    text = prose("README.md")
    least = stated("README.md", rf"gzips JSON answers of {NUMBER} KB or more")
    assert least == [int(nginx("gzip_min_length")) // 1024]
    sizes = re.findall(r"a `turn` answer: ([\d.]+) KB, ([\d.]+) KB gzipped", text)
    assert len(sizes) == 1
    plain, zipped = (float(n) for n in sizes[0])
    # The README's own turn example, answered here, compressed at the sidecar's level.
    example = re.search(r"salvo-solo/turn .*? -d '(\{.*?\"player_action\": \"C\".*?\})'", text)
    assert example, "the README's salvo-solo turn example"
    answer = (
        create_app()
        .test_client()
        .post(
            "/v1/rulesets/salvo-solo/turn",
            data=example.group(1),
            content_type="application/json",
        )
    )
    assert answer.status_code == 200
    level = int(nginx("gzip_comp_level"))
    # A tenth of a KB either way: the time and the key id in the signed part vary a little.
    assert abs(len(answer.data) / 1000 - plain) <= 0.1
    assert abs(len(gzip.compress(answer.data, level)) / 1000 - zipped) <= 0.1


def test_the_notations_docs_dice_names_are_answered_or_refused_as_it_says() -> None:
    """docs/dice.md names notations whose odds the work budget answers and ones it refuses:
    each is what the service does with it."""
    text = " ".join(prose("docs/dice.md").split())
    said = re.search(r"Within it, (.*?) are answered; (.*?) are refused\.", text)
    assert said, "docs/dice.md's sentence of answered and refused notations"

    def named(words: str) -> list[str]:
        return [n for n in re.split(r",\s*|\s+(?:and|or)\s+", words) if n]

    client = create_app().test_client()
    answered, refused = named(said.group(1)), named(said.group(2))
    assert len(answered) >= 5 and len(refused) >= 3
    for text_ in answered:
        assert client.post("/v1/dice/odds", json={"notation": text_}).status_code == 200, text_
    for text_ in refused:
        problem = client.post("/v1/dice/odds", json={"notation": text_}).get_json()
        assert problem["type"] == "/problems#limit", text_
