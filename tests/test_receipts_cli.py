"""The key commands (``python -m service.receipts new|rotate signing|seal [FILE]``): what
each prints and writes, called in this process (the subprocess tests in
test_receipts_keys.py check the module runs as a command)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from service.receipts import keys
from service.receipts.__main__ import main
from tests.receipts_helpers import record_moves

USAGE_LINE = "new signing|seal            print a new key set (JSON) for a Secret or a file"


def stored(path: Path) -> list[dict[str, Any]]:
    members: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["keys"]
    return members


@pytest.mark.parametrize(
    "argv",
    [[], ["new"], ["rotate"], ["new", "nothing"], ["rotate", "sealing"], ["old", "signing"]],
)
def test_a_command_out_of_shape_prints_the_usage_and_exits_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert USAGE_LINE in err


def test_new_signing_prints_one_private_ed25519_key(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "signing"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    document = json.loads(out)
    assert len(document["keys"]) == 1
    [key] = document["keys"]
    assert (key["kty"], key["crv"]) == ("OKP", "Ed25519") and "d" in key
    assert keys.signing_keys(document).kid == key["kid"]


def test_new_seal_prints_one_256_bit_key(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "seal"]) == 0
    out, _ = capsys.readouterr()
    document = json.loads(out)
    assert len(document["keys"]) == 1 and document["keys"][0]["kty"] == "oct"
    assert len(keys.seal_keys(document).current) == 32


def test_two_new_keys_differ(capsys: pytest.CaptureFixture[str]) -> None:
    main(["new", "seal"])
    main(["new", "seal"])
    first, second = capsys.readouterr().out.splitlines()
    assert json.loads(first)["keys"][0]["k"] != json.loads(second)["keys"][0]["k"]


def test_rotate_signing_puts_a_new_key_first_and_keeps_the_old_one_public(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "signing.json"
    old = keys.new_signing_key()
    path.write_text(json.dumps({"keys": [old]}), encoding="utf-8")
    assert main(["rotate", "signing", str(path)]) == 0
    out, err = capsys.readouterr()
    members = stored(path)
    assert out == f"signing keys in {path}: {members[0]['kid']} is now first\n"
    assert err == ""
    assert [member["kid"] for member in members] == [members[0]["kid"], old["kid"]]
    assert members[0]["kid"] != old["kid"] and "d" in members[0]
    assert members[1] == {name: value for name, value in old.items() if name != "d"}
    assert old["d"] not in out and members[0]["d"] not in out
    loaded = keys.signing_keys({"keys": members})
    assert loaded.kid == members[0]["kid"] and set(loaded.public) == {members[0]["kid"], old["kid"]}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["signing.json"]  # no temporary left


def test_rotate_seal_keeps_the_retired_key_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "seal.json"
    old = keys.new_seal_key()
    path.write_text(json.dumps({"keys": [old]}), encoding="utf-8")
    assert main(["rotate", "seal", str(path)]) == 0
    out, _ = capsys.readouterr()
    members = stored(path)
    assert out == f"seal keys in {path}: {members[0]['kid']} is now first\n"
    assert members[1] == old  # it must still open the tokens it sealed
    assert members[0]["kty"] == "oct" and members[0]["k"] != old["k"]
    assert old["k"] not in out and members[0]["k"] not in out


@pytest.mark.parametrize("kind", ["signing", "seal"])
def test_rotate_without_a_file_rotates_the_data_folders_set(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FIRECONTROL_DATA_DIR", str(tmp_path))
    path = tmp_path / f"{kind}-keys.json"
    maker = keys.new_signing_key if kind == "signing" else keys.new_seal_key
    first = maker()
    path.write_text(json.dumps({"keys": [first]}), encoding="utf-8")
    assert main(["rotate", kind]) == 0
    members = stored(path)
    assert len(members) == 2 and members[1]["kid"] == first["kid"]
    assert capsys.readouterr().out == f"{kind} keys in {path}: {members[0]['kid']} is now first\n"


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (None, "No such file"),
        ("not json", "Expecting value"),
        ('{"nothing": []}', "the seal keys are not a JSON Web Key Set"),
        ('{"keys": []}', "the seal key set has no keys"),
    ],
)
def test_rotate_refuses_a_file_it_cannot_use_and_exits_1(
    content: str | None, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "seal.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["rotate", "seal", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"cannot rotate the seal keys in {path}: ")
    assert why in err
    if content is not None:
        assert path.read_text(encoding="utf-8") == content  # left as it was
    assert [p.name for p in tmp_path.iterdir()] == ([] if content is None else ["seal.json"])


def test_replace_that_fails_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "seal.json"
    path.write_text('{"keys": ["old"]}', encoding="utf-8")
    with pytest.raises(TypeError):
        keys.replace(path, {"keys": [object()]})
    assert path.read_text(encoding="utf-8") == '{"keys": ["old"]}'
    assert [p.name for p in tmp_path.iterdir()] == ["seal.json"]


def test_replace_writes_the_document_as_json(tmp_path: Path) -> None:
    path = tmp_path / "seal.json"
    path.write_text("old", encoding="utf-8")
    keys.replace(path, {"keys": [{"kid": "a"}]})
    assert json.loads(path.read_text(encoding="utf-8")) == {"keys": [{"kid": "a"}]}
    assert [p.name for p in tmp_path.iterdir()] == ["seal.json"]


def test_replace_writes_its_temporary_beside_the_file_so_the_rename_is_atomic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """os.replace is atomic only within one file system: a temporary in the system's temp
    folder would fail (or stop being atomic) when the key file lives on another volume."""
    renames = record_moves(monkeypatch, "replace")
    folder = tmp_path / "keys"
    folder.mkdir()
    path = folder / "seal.json"
    path.write_text("old", encoding="utf-8")
    keys.replace(path, {"keys": []})
    [(source, target)] = renames
    assert target == path and source.parent == folder


# --- the standalone verifier, tools/verify_dice.py, called in this process -----------------

VERIFIER = Path(__file__).resolve().parent.parent / "tools" / "verify_dice.py"
LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
_spec = importlib.util.spec_from_file_location("verify_dice_cli", VERIFIER)
assert _spec is not None and _spec.loader is not None
verifier = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verifier)


def run_verifier(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = verifier.main(["verify_dice.py", *args])
    out, err = capsys.readouterr()
    return int(code), out, err


@pytest.mark.parametrize("reveal", ["[]", '"a-seed"', "42", "null", "true", "[{}]"])
def test_a_reveal_file_that_is_json_but_no_object_is_named_and_fails(
    reveal: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A reveal file holding valid JSON that is not an object (a list, a string, a number)
    was read with .get and ended in a traceback; it is a problem the verifier names, and
    the verdict is not a pass (exit 1), also with --json (the note goes to stderr)."""
    path = tmp_path / "revealed.json"
    path.write_text(reveal, encoding="utf-8")
    log = str(LOGS / "sealed-after-reveal.json")
    code, out, err = run_verifier(capsys, "--jwks", str(LOGS / "jwks.json"), log, str(path))
    assert code == 1
    assert "a reveal file is not a JSON object (the saved answer of POST /v1/seeds/reveal)" in out
    assert "[dice-mismatch]" not in out  # the log itself is fine: its rolls are not yet checked
    assert "verdict: INVALID" in out  # but the check as a whole is no pass, as the exit says
    assert err == ""
    code, out, err = run_verifier(capsys, "--json", log, str(path))
    assert code == 1
    assert "a reveal file is not a JSON object" in err
    assert json.loads(out)["not_yet_checkable"] == 4


def test_a_reveal_problem_fails_even_when_nothing_is_sealed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A reveal file that is no reveal answer is a mistake of the one who checks: a seeded
    game still re-derives, but the verifier does not call the whole check a pass."""
    for reveal in ('{"seed": 5, "commitment": "x"}', "[1]"):
        path = tmp_path / "revealed.json"
        path.write_text(reveal, encoding="utf-8")
        jwks = str(LOGS / "jwks.json")
        code, out, _ = run_verifier(
            capsys, "--jwks", jwks, str(LOGS / "valid-game.json"), str(path)
        )
        assert code == 1, out
        assert "verdict: INVALID" in out  # what the exit status says; the log's entries hold
        assert "MISMATCH" not in out
    code, out, _ = run_verifier(capsys, "--jwks", jwks, str(LOGS / "valid-game.json"))
    assert code == 0 and "verdict: VALID" in out


def test_the_seal_answer_is_named_a_sealed_seed_with_its_commitment_and_reveal_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The answer of POST /v1/seeds heads a sealed game's log; it has no ruleset and no step,
    and the verifier printed "None/None" for it. It is named as the referee's page names it
    (explain.js stepName), with what it commits to and when it may be revealed."""
    game = json.loads((LOGS / "sealed-after-reveal.json").read_text(encoding="utf-8"))
    seal = game[0]
    log, revealed = LOGS / "sealed-after-reveal.json", LOGS / "sealed-after-reveal.revealed.json"
    code, out, _ = run_verifier(capsys, "--jwks", str(LOGS / "jwks.json"), str(log), str(revealed))
    assert code == 0, out
    first = out.splitlines()[0]
    assert first == (
        f"entry 1 sealed seed: commitment {seal['commitment']}, reveal after {seal['reveal_after']}"
    )
    assert "None" not in out
    assert out.count(": ok, ") == len(game) - 1


def test_a_plain_roll_is_named_dice_roll_as_on_the_referees_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """POST /v1/dice/roll answers ruleset null: "dice/roll", not "None/roll"."""
    names = [
        verifier.step_name({"ruleset": None, "step": "roll"}),
        verifier.step_name({"ruleset": "salvo-solo", "step": "fire"}),
        verifier.step_name({"commitment": "ab", "reveal_after": "2026-01-01T00:00:00Z"}),
        verifier.step_name({"commitment": "ab", "rolls": [], "ruleset": None, "step": "roll"}),
        verifier.step_name({"commitment": 5}),
        verifier.step_name({"ruleset": 7, "step": ["a"]}),
    ]
    assert names == [
        "dice/roll",
        "salvo-solo/fire",
        "sealed seed",
        "dice/roll",
        "dice/?",
        '7/["a"]',
    ]


def test_a_seal_answer_whose_signature_fails_is_a_mismatch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An edited seal answer (another commitment) is shown as a mismatch, not as a sealed
    seed committing to the edited value."""
    game = json.loads((LOGS / "sealed-after-reveal.json").read_text(encoding="utf-8"))
    game[0]["commitment"] = "0" * 64
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    code, out, _ = run_verifier(capsys, "--jwks", str(LOGS / "jwks.json"), str(path))
    assert code == 1
    assert out.splitlines()[0] == "entry 1 sealed seed: MISMATCH"
    assert "  [altered] the signature does not match the document: it was altered" in out


def test_a_forged_reveal_is_named_as_not_matching_not_as_still_waiting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A reveal passed for the game's commitment whose seed is not the committed one: the
    sealed rolls are wrong (the reveal does not match), not waiting for a reveal."""
    log = LOGS / "sealed-after-reveal.json"
    reveal = json.loads((LOGS / "sealed-after-reveal.revealed.json").read_text(encoding="utf-8"))
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps({**reveal, "seed": "a-seed-of-my-own"}), encoding="utf-8")
    code, out, _ = run_verifier(capsys, "--jwks", str(LOGS / "jwks.json"), str(log), str(forged))
    assert code == 1 and "verdict: INVALID" in out
    assert "[sealed-not-yet-checkable]" not in out and "not yet checkable" not in out
    assert "[reveal-mismatch]" in out
    assert "the reveal passed for it does not match" in out
    code, out, _ = run_verifier(capsys, "--json", str(log), str(forged))
    verdict = json.loads(out)
    sealed = [e for e in verdict["entries"] if "reveal-mismatch" in e["codes"]]
    assert len(sealed) == 4 and all(e["dice_valid"] is False for e in sealed)
    assert verdict["not_yet_checkable"] == 0
    # With the true reveal passed as well, the dice are checked against it.
    true = str(LOGS / "sealed-after-reveal.revealed.json")
    code, out, _ = run_verifier(
        capsys, "--jwks", str(LOGS / "jwks.json"), str(log), str(forged), true
    )
    assert "[reveal-mismatch]" not in out and "MISMATCH" not in out
