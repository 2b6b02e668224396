"""One dice source: the published algorithm, its vectors, supplied dice, limits, odds."""

from __future__ import annotations

import ast
import itertools
import json
import re
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import dice
from service.engine.errors import DiceError, LimitError, NotationError
from service.engine.notation import Notation

ROOT = Path(__file__).resolve().parent.parent
VECTORS = json.loads((ROOT / "docs" / "dice-vectors.json").read_text(encoding="utf-8"))
VERIFIER = ROOT / "tools" / "verify_dice.py"


def test_vectors_name_the_algorithm() -> None:
    assert VECTORS["algorithm"] == dice.ALGORITHM == "fc-dice-v1"
    assert len(VECTORS["vectors"]) >= 10


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: f"{v['sides']}-{v['nonce']}")
def test_engine_reproduces_every_published_vector(vector: dict[str, Any]) -> None:
    source = dice.SeededDice(vector["seed"], vector["nonce"])
    roll = source.draw("vector", len(vector["values"]), vector["sides"])
    assert list(roll.values) == vector["values"]


def test_the_snippet_in_the_docs_reproduces_the_vectors() -> None:
    text = (ROOT / "docs" / "dice.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None
    namespace: dict[str, Any] = {}
    exec(code.group(1), namespace)  # noqa: S102 - the published snippet, run as a reader would
    for vector in VECTORS["vectors"]:
        rolls = [(len(vector["values"]), vector["sides"])]
        assert list(namespace["dice"](vector["seed"], vector["nonce"], rolls)) == [vector["values"]]


def test_first_d6_is_read_straight_from_the_hmac() -> None:
    import hashlib
    import hmac

    digest = hmac.new(b"game-42", b"fc-dice-v1:1:0", hashlib.sha256).digest()
    first_kept = next(b for b in digest if b < 252)
    assert dice.SeededDice("game-42", 1).draw("d6", 1, 6).values[0] == first_kept % 6 + 1


def test_a_byte_past_the_limit_is_thrown_away() -> None:
    stream = iter([255, 254, 253, 252, 11])  # 252..255 lie past a d6's limit of 252
    assert dice.die_from_stream(stream, 6) == 11 % 6 + 1


def test_two_byte_dice_for_more_than_256_sides() -> None:
    stream = iter([0x01, 0x2C])  # 300, below the limit for a d1000
    assert dice.die_from_stream(stream, 1000) == 301


@settings(max_examples=200, deadline=None)
@given(
    seed=st.text(min_size=1, max_size=40),
    nonce=st.integers(min_value=0, max_value=dice.MAX_NONCE),
    sides=st.integers(min_value=2, max_value=dice.MAX_SIDES),
)
def test_every_die_is_a_face_and_replays_identically(seed: str, nonce: int, sides: int) -> None:
    first = dice.SeededDice(seed, nonce).draw("x", 12, sides).values
    again = dice.SeededDice(seed, nonce).draw("x", 12, sides).values
    assert first == again
    assert all(1 <= value <= sides for value in first)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.text(min_size=1, max_size=20),
    nonce=st.integers(min_value=0, max_value=dice.MAX_NONCE),
    rolls=st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=40),
            st.sampled_from([2, 3, 5, 6, 7, 10, 100, 129, 255, 256, 257, 1000]),
        ),
        max_size=8,
    ),
)
def test_a_roll_of_seeded_or_sealed_dice_is_its_dice_read_one_by_one(
    seed: str, nonce: int, rolls: list[tuple[int, int]]
) -> None:
    """A roll reads its dice in one loop: the same dice, and the same bytes left for the
    next roll, as reading them one die at a time (one- and two-byte dice, none at all)."""
    for source in (dice.SeededDice(seed, nonce), dice.SealedDice(seed, "client", nonce)):
        one_by_one = dice.byte_stream(source.describe().get("seed") or f"{seed}:client", nonce)
        for count, sides in rolls:
            wanted = tuple(dice.die_from_stream(one_by_one, sides) for _ in range(count))
            assert source.draw("x", count, sides).values == wanted
        assert source.used == sum(count for count, _ in rolls)
        assert source.draw("x", 3, 6).values == tuple(
            dice.die_from_stream(one_by_one, 6) for _ in range(3)
        )


@settings(max_examples=300, deadline=None)
@given(
    stream=st.binary(max_size=40),
    sides=st.sampled_from([2, 3, 6, 7, 100, 128, 255, 256, 257, 999, 1000]),
    count=st.integers(min_value=0, max_value=12),
)
def test_dice_read_together_are_the_dice_read_one_by_one(
    stream: bytes, sides: int, count: int
) -> None:
    """The same dice, the stream left at the same byte, and the same StopIteration when the
    bytes run out (biased streams: many bytes past a limit)."""

    def one_by_one(source: Any) -> Any:
        try:
            return [dice.die_from_stream(source, sides) for _ in range(count)]
        except StopIteration:
            return "ran out"

    def together(source: Any) -> Any:
        try:
            return list(dice.dice_from_stream(source, count, sides))
        except StopIteration:
            return "ran out"

    biased = bytes(min(255, b * 2) for b in stream)  # every other byte of 128..255 kept
    for data in (stream, biased):
        first, second = iter(data), iter(data)
        assert together(first) == one_by_one(second)
        assert list(first) == list(second)


def test_dice_read_together_across_hmac_blocks() -> None:
    alone = dice.byte_stream("cross-blocks", 5)
    expected = [dice.die_from_stream(alone, 6) for _ in range(60)]
    assert dice.dice_from_stream(dice.byte_stream("cross-blocks", 5), 60, 6) == tuple(expected)


@pytest.mark.parametrize("sides", [6, 10, 7, 100, 300])
def test_faces_are_uniform_chi_square(sides: int) -> None:
    """Rolls across many seeds: chi-square well inside what uniform dice produce."""
    rolls_per_face = 400
    counts = Counter(
        value
        for seed in range(sides * rolls_per_face // 20)
        for value in dice.SeededDice(f"uniform-{seed}", 0).draw("x", 20, sides).values
    )
    expected = sum(counts.values()) / sides
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1))
    # 99.99th percentile of chi-square with k-1 degrees of freedom, by Wilson-Hilferty.
    k = sides - 1
    bound = k * (1 - 2 / (9 * k) + 3.719 * (2 / (9 * k)) ** 0.5) ** 3
    assert len(counts) == sides
    assert chi_square < bound


def test_modulo_would_have_been_biased() -> None:
    """Why rejection sampling: plain modulo on a byte favours low faces of a d6."""
    biased = Counter(byte % 6 + 1 for byte in range(256))
    fair = Counter(byte % 6 + 1 for byte in range(252))
    assert len(set(biased.values())) == 2
    assert len(set(fair.values())) == 1


def test_fresh_dice_name_a_server_seed() -> None:
    fresh = dice.SeededDice.fresh()
    described = fresh.describe()
    assert described["seed_source"] == "server" and len(described["seed"]) >= 16
    assert dice.SeededDice.fresh().seed != fresh.seed


# --- supplied dice ----------------------------------------------------------------------


def test_supplied_dice_are_taken_in_order() -> None:
    source = dice.SuppliedDice([3, 5, 2, 6])
    assert source.draw("a", 3, 6).values == (3, 5, 2)
    assert source.draw("b", 1, 6).values == (6,)
    source.finish()


def test_too_few_supplied_dice_name_the_die_wanted() -> None:
    source = dice.SuppliedDice([3, 5])
    with pytest.raises(DiceError, match=r"wants another: die 3 of 3d6 for straddle"):
        source.draw("straddle", 3, 6)


def test_a_value_off_the_die_is_refused() -> None:
    with pytest.raises(DiceError, match=r"value 7 \(dice.values\[1\]\) is not a face of a d6"):
        dice.SuppliedDice([3, 7, 1]).draw("straddle", 3, 6)


def test_too_many_supplied_dice_are_refused() -> None:
    source = dice.SuppliedDice([3, 5, 2, 6])
    source.draw("straddle", 3, 6)
    with pytest.raises(DiceError, match=r"4 dice supplied, but the step used only 3"):
        source.finish()


def test_a_request_cannot_roll_unbounded_dice() -> None:
    source = dice.SeededDice("x", 0)
    with pytest.raises(LimitError, match="at most 1000 dice"):
        source.draw("flood", 1001, 6)
    with pytest.raises(LimitError, match="2 to 1000 sides"):
        source.draw("huge", 1, 1001)


# --- notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "terms", "constant"),
    [
        ("3d6", ((1, 3, 6),), 0),
        ("2d8+1d10", ((1, 2, 8), (1, 1, 10)), 0),
        ("d6", ((1, 1, 6),), 0),
        ("1d6+2", ((1, 1, 6),), 2),
        ("2D6 - 1", ((1, 2, 6),), -1),
        ("6d6", ((1, 6, 6),), 0),
        ("1d20-1d4", ((1, 1, 20), (-1, 1, 4)), 0),
        ("-1d6+3", ((-1, 1, 6),), 3),
        ("d%", ((1, 1, 100),), 0),
        ("4dF", ((1, 4, 3),), 0),
    ],
)
def test_notation_is_read(
    text: str, terms: tuple[tuple[int, int, int], ...], constant: int
) -> None:
    parsed = Notation.parse(text)
    assert tuple((t.sign, t.count, t.sides) for t in parsed.terms) == terms
    assert parsed.constant == constant


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("3x6", "cannot read"),
        ("101d6", "1 to 100 dice"),
        ("60d6+41d6", "1 to 100 dice"),
        ("0d6", "1 to 100 dice"),
        ("1d1", "2 to 1000 sides"),
        ("1d1001", "2 to 1000 sides"),
        ("1d6+10001", "constant"),
        ("3d6 3d6", "cannot read"),
        ("100d6r1!", "could draw 3600 dice; a roll draws at most 1000"),
    ],
)
def test_notation_past_a_limit_is_refused(text: str, message: str) -> None:
    with pytest.raises((LimitError, NotationError), match=message):
        Notation.parse(text)


WHERE = re.compile(r"at character (\d+) \((.*?)\):")


def test_every_refusal_points_at_a_character_of_the_text() -> None:
    """Every text of up to four characters over the notation's alphabet (and a blank, a
    tab and a digit of another script): it reads, or is past a limit, or its refusal names
    a position of the text and the very character there (or the text's end)."""
    alphabet = "1d6+-kh!r>=fF \t\u0663"
    unread = 0
    for n in range(5):
        for letters in itertools.product(alphabet, repeat=n):
            text = "".join(letters)
            try:
                Notation.parse(text)
            except LimitError:
                continue
            except NotationError as error:
                unread += 1
                found = WHERE.search(error.detail)
                if found is None:
                    assert "at its end" in error.detail or error.detail in {
                        "dice notation is empty",
                    }, (text, error.detail)
                    continue
                at = int(found.group(1)) - 1
                assert found.group(2) == repr(text[at]), (text, error.detail)
    assert unread > 0


@pytest.mark.parametrize(
    ("text", "kind", "message"),
    [
        ("abc", "notation", "cannot read dice notation 'abc' at character 1 ('a')"),
        ("4d6kh3x", "notation", "at character 7 ('x')"),
        ("4d6kh3kh1", "notation", "at character 7 ('k'): a term takes one keep highest modifier"),
        ("1d6f1", "notation", "at character 4 ('f'): failures (f) come after a success"),
        ("1d6r<7", "notation", "the reroll <7 of 1d6r<7 meets every face"),
        ("101d6", "limit", "a roll has 1 to 100 dice in all, not 101"),
        ("1d1001", "limit", "a die has 2 to 1000 sides"),
        ("x" * 201, "validation", "Length must be between 1 and 200"),
    ],
)
def test_a_notation_that_does_not_read_is_a_problem_at_notation(
    client: Any, text: str, kind: str, message: str
) -> None:
    problem = client.post("/v1/dice/roll", json={"notation": text}).get_json()
    assert problem["status"] == 422 and problem["type"] == f"/problems#{kind}"
    assert problem["errors"][0]["field"] == "notation"
    assert message in problem["errors"][0]["message"]


# --- enumeration for odds ------------------------------------------------------------------


def test_enumeration_of_3d6_matches_the_known_distribution() -> None:
    def total(source: dice.DiceSource) -> int:
        return source.draw("x", 3, 6).total

    distribution = dice.enumerate_outcomes(total)
    assert distribution[10] == Fraction(27, 216)
    assert distribution[3] == Fraction(1, 216)
    assert sum(distribution.values()) == 1


def test_enumeration_follows_conditional_rolls() -> None:
    def play(source: dice.DiceSource) -> str:
        first = source.draw("coin", 1, 2).total
        return "heads" if first == 1 else f"tails-{source.draw('d3', 1, 3).total}"

    distribution = dice.enumerate_outcomes(play)
    assert distribution == {
        "heads": Fraction(1, 2),
        "tails-1": Fraction(1, 6),
        "tails-2": Fraction(1, 6),
        "tails-3": Fraction(1, 6),
    }


def test_enumeration_is_capped() -> None:
    with pytest.raises(LimitError, match="more than"):
        dice.enumerate_outcomes(lambda source: source.draw("x", 8, 6).total)


# --- the standalone verifier ---------------------------------------------------------------


def run_verifier(tmp_path: Path, document: Any) -> subprocess.CompletedProcess[str]:
    saved = tmp_path / "saved.json"
    saved.write_text(json.dumps(document), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-I", str(VERIFIER), "--dice-only", str(saved)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_verifier_imports_only_the_standard_library() -> None:
    tree = ast.parse(VERIFIER.read_text(encoding="utf-8"))
    imports = {
        alias.name.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import)
        for alias in n.names
    }
    imports |= {
        n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    }
    assert "hashlib" in imports  # the walk finds the imports
    assert imports <= set(sys.stdlib_module_names) | {"__future__", "cryptography"}


def test_verifier_confirms_a_saved_response_and_catches_an_altered_die(
    client: Any, tmp_path: Path
) -> None:
    body = {
        "state": {
            "turn": 1,
            "weather": "Fair",
            "range": "Medium",
            "player": {"ship": "Ajax"},
            "enemy": {"ship": "Graf Spee"},
        },
        "player_action": "OB",
        "dice": {"seed": "verify-me", "nonce": 4},
    }
    saved = client.post("/v1/rulesets/salvo-solo/turn", json=body).get_json()
    assert len(saved["rolls"]) >= 4
    ok = run_verifier(tmp_path, saved)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "ok" in ok.stdout

    altered = json.loads(json.dumps(saved))
    first = altered["rolls"][0]
    first["values"][0] = first["values"][0] % 6 + 1
    first["total"] = sum(first["values"])
    bad = run_verifier(tmp_path, [saved, altered])
    assert bad.returncode == 1
    assert "entry 1 salvo-solo/turn: ok" in bad.stdout
    assert "entry 2 salvo-solo/turn: MISMATCH" in bad.stdout


def test_verifier_explains_supplied_dice_cannot_be_rederived(tmp_path: Path) -> None:
    result = run_verifier(tmp_path, {"dice": {"mode": "supplied", "values": [1]}, "rolls": []})
    assert result.returncode == 1 and "only seeded rolls" in result.stdout


# --- the published vectors reach past one HMAC block, to 1000 sides, sealed too -------------


def _bytes_read(vector: dict[str, Any]) -> int:
    """How many bytes of the stream the vector's dice consume."""
    stream = dice.byte_stream(vector["seed"], vector["nonce"])
    count = 0

    def counted() -> Any:
        nonlocal count
        for byte in stream:
            count += 1
            yield byte

    source = counted()
    for _ in vector["values"]:
        dice.die_from_stream(source, vector["sides"])
    return count


def test_vectors_cross_hmac_blocks_for_one_and_two_byte_dice() -> None:
    crossing = [v for v in VECTORS["vectors"] if _bytes_read(v) > 64]  # into a third block
    assert {v["sides"] for v in crossing} >= {6, 256, 257, 500, 999, 1000}
    assert any(v["nonce"] == dice.MAX_NONCE for v in crossing)
    assert all(_bytes_read(v) > 32 for v in VECTORS["vectors"] if "sealed" in v)


def test_vectors_cover_257_to_1000_sides() -> None:
    sides = {v["sides"] for v in VECTORS["vectors"]}
    assert {2, 6, 256, 257, 500, 999, 1000} <= sides


def test_a_die_past_the_first_block_comes_from_block_1() -> None:
    """The 33rd byte is the first byte of HMAC(..., "fc-dice-v1:<nonce>:1")."""
    import hashlib
    import hmac

    first = hmac.new(b"cross-blocks", b"fc-dice-v1:5:0", hashlib.sha256).digest()
    second = hmac.new(b"cross-blocks", b"fc-dice-v1:5:1", hashlib.sha256).digest()
    assert list(itertools_islice(dice.byte_stream("cross-blocks", 5), 64)) == list(first + second)
    vector = next(
        v for v in VECTORS["vectors"] if v["seed"] == "cross-blocks" and v["sides"] == 256
    )
    assert vector["values"][32] == second[0] + 1


def itertools_islice(iterator: Any, count: int) -> Any:
    import itertools

    return itertools.islice(iterator, count)


SEALED_VECTORS = [v for v in VECTORS["vectors"] if "sealed" in v]


@pytest.mark.parametrize("vector", SEALED_VECTORS, ids=lambda v: f"sealed-{v['sides']}")
def test_sealed_vectors_are_fc_dice_v1_of_server_and_client_seed(vector: dict[str, Any]) -> None:
    sealed = vector["sealed"]
    assert sealed["algorithm"] == dice.SEALED_ALGORITHM
    assert dice.commitment(sealed["server_seed"]) == sealed["commitment"]
    assert vector["seed"] == f"{sealed['server_seed']}:{sealed['client_seed']}"
    source = dice.SealedDice(sealed["server_seed"], sealed["client_seed"], vector["nonce"])
    assert list(source.draw("v", len(vector["values"]), vector["sides"]).values) == vector["values"]
    assert source.describe()["commitment"] == sealed["commitment"]


def _verifier() -> Any:
    """tools/verify_dice.py as a module: its own stream and die, which import no service code."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("verify_dice_under_test", VERIFIER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: f"{v['sides']}-{v['nonce']}")
def test_the_standalone_verifier_rederives_every_vector(vector: dict[str, Any]) -> None:
    verifier = _verifier()
    source = verifier.stream(vector["seed"], vector["nonce"])
    assert [verifier.die(source, vector["sides"]) for _ in vector["values"]] == vector["values"]


# --- fresh server dice start at nonce 0 ---------------------------------------------------


def test_fresh_server_dice_report_nonce_0() -> None:
    fresh = dice.SeededDice.fresh()
    described = fresh.describe()
    assert described["nonce"] == 0 and fresh.nonce == 0
    assert described["seed_source"] == "server" and described["mode"] == "seeded"
    # nonce 0 is what the stream is keyed with: the replay with the same seed agrees
    replay = dice.SeededDice(fresh.seed, 0).draw("x", 40, 6).values
    assert fresh.draw("x", 40, 6).values == replay


def test_fresh_server_dice_over_http_report_nonce_0(client: FlaskClient) -> None:
    response = client.post("/v1/dice/roll", json={"notation": "3d6"})
    assert response.status_code == 200
    described = response.get_json()["dice"]
    assert described["nonce"] == 0 and described["seed_source"] == "server"
