"""Check saved responses: each entry's signature and dice, and a game log as a whole.

A log is the list of a game's responses in the order they were made. It holds when every
entry is signed by this service and its dice re-derive, each entry's ``prev`` is the hash
of the receipt before it (nothing removed, inserted, reordered or replayed), the log starts
at the beginning of a game (no ``prev`` on its first entry, no nonce past the first), the
nonces count up by one, and the service rolled every entry's dice from the one seed or
sealed seed of the game (so a roll that was made and thrown away shows as a gap, a repeat
or another seed, and dice the player supplied show unless the referee accepts them). The two
calls of one Salvo! turn, a pending answer and the same request with the player's Action,
share their nonce and count as one turn (``finishes_pending_turn``).

An entry that rolled no dice (a manoeuvre) proves nothing about the dice: it takes no part
in the one-seed check (the fresh server seed a request without ``dice`` gets is not the
game's), and it keeps its place in the nonce sequence only when it names the game's seed.

The checker is bounded: it accepts only what the service could have answered (the dice
limits of rolling), at most ``MAX_LOG_ENTRIES`` entries and ``MAX_DOCUMENT_DICE`` dice in a
whole document, and every list of problems is capped. A longer game is checked in parts:
a valid part's answer carries a signed checkpoint (``state_of``), and the next part,
sent with it, is checked from the state it carries (``Carry``) as if the entries before
were there. tools/verify_dice.py implements the
same checks with the same problem codes and words (tests/test_verifiers_agree.py).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeGuard, TypeVar

from ..engine import budget
from ..engine.dice import (
    MAX_DICE_PER_REQUEST,
    MAX_NONCE,
    MAX_SIDES,
    byte_stream,
    commitment,
    dice_from_stream,
    sealed_seed,
)
from ..engine.errors import LimitError, RuleError
from .answers import CHECKPOINT_FORMAT as CHECKPOINT_FORMAT
from .answers import INVALID as INVALID
from .answers import MAX_ENTRY_PROBLEMS as MAX_ENTRY_PROBLEMS
from .answers import MAX_LOG_PROBLEMS as MAX_LOG_PROBLEMS
from .answers import MORE as MORE
from .answers import NOT_YET as NOT_YET
from .answers import (
    SEALED,
    SEEDED,
    SUPPLIED,
    Checkpoint,
    CheckpointSeed,
    CheckpointState,
    ContinuesFrom,
    EntryCode,
    LogCode,
    Verdict,
    VerifiedEntry,
    VerifiedLog,
    VerifyResponse,
)
from .answers import SEALED_NOT_YET as SEALED_NOT_YET
from .answers import VALID as VALID
from .keys import SealKeys, SigningKeys
from .sealing import open_token
from .signing import KEPT, asked, check_signature, echoed, receipt_hash, rfc3339

NOTATION = re.compile(r"^([1-9]\d{0,6})d([1-9]\d{0,6})$")
MAX_SEED = 256
MAX_LOG_ENTRIES = 100
MAX_DOCUMENT_DICE = 10 * MAX_DICE_PER_REQUEST
MAX_ECHO = 60
MAX_NAME = 64

# What checking costs, in the work units of service/engine/budget.py (about 0.1 us of CPU):
# an entry's signature about 1,500 (a signature that fails is asked of libsodium, then of
# OpenSSL, whose verdict stands), its canonical JSON about a unit a value, and each die
# re-derived about 12. A log is charged as it is checked; the route affords the whole of
# it from the body's bytes before reading them (``checking_work``), so a log too dear for
# one request is refused before any of the work, with the way to split it.
SIGNATURE_WORK = 1_500
CANONICAL_WORK_PER_VALUE = 1
DIE_WORK = 12
SPLIT = (
    "verify the game in parts of fewer entries: a valid part's answer carries a signed "
    "checkpoint to send with the next part (docs/verifiable-rolls.md, Checkpoints)"
)
HEX64 = re.compile(r"^[0-9a-f]{64}$")


def show(value: Any) -> str:
    """A value from the document, quoted as JSON and cut short: an answer stays small."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):  # pragma: no cover - decoded JSON always dumps
        text = "?"
    return text if len(text) <= MAX_ECHO else text[: MAX_ECHO - 3] + "..."


def entry_name(index: int) -> str:
    """How a problem text names an entry: counting from 1, as players and the referee's page
    do (the answer's ``index`` members count from 0)."""
    return f"entry {index + 1}"


Code = TypeVar("Code", EntryCode, LogCode)


def capped(found: list[tuple[Code, str]], limit: int) -> list[tuple[Code, str]]:
    if len(found) <= limit:
        return found
    return [*found[:limit], (MORE, f"... and {len(found) - limit} more")]


def _parse_notation(notation: str) -> tuple[int, int] | None:
    match = NOTATION.match(notation)
    return (int(match.group(1)), int(match.group(2))) if match else None


# The few notations a game's rolls repeat, read once (the checker reads each roll's twice).
# Only text as short as a notation can be is kept: at most 7 digits, "d", 7 digits and the
# line end ``$`` lets through.
_NOTATION_CHARS = 16
_remembered_notation = functools.lru_cache(maxsize=1024)(_parse_notation)


def read_notation(notation: str) -> tuple[int, int] | None:
    """(count, sides) of a roll's notation ``NdS``, or None when it is not one."""
    if len(notation) > _NOTATION_CHARS:
        return _parse_notation(notation)
    return _remembered_notation(notation)


def _notation_of(roll: Any) -> tuple[int, int] | None:
    notation = roll.get("notation") if isinstance(roll, dict) else None
    return read_notation(notation) if isinstance(notation, str) else None


def declared_dice(document: Any) -> int:
    """How many dice a response declares in its rolls (what re-deriving it would cost)."""
    rolls = document.get("rolls") if isinstance(document, dict) else None
    total = 0
    for roll in rolls if isinstance(rolls, list) else ():
        read = _notation_of(roll)
        total += read[0] if read else 0
    return total


def checking_work(receipts: int, values: int) -> int:
    """Work units of checking a body's entries (dice aside: ``dice_work``) when its bytes
    hold ``receipts`` receipts (the member's name counted, a checkpoint's included) and
    ``values`` JSON values at most: every signature, and every value's canonical JSON."""
    return min(receipts, MAX_LOG_ENTRIES + 1) * SIGNATURE_WORK + values * CANONICAL_WORK_PER_VALUE


def _charge(units: int, what: str) -> None:
    budget.current().charge(units, what, SPLIT, field="(body)")


def document_limits(documents: list[Any]) -> LimitError | None:
    """A 422 for a document bigger than anything the service could have answered."""
    if len(documents) > MAX_LOG_ENTRIES:
        return LimitError(
            f"a log to verify holds at most {MAX_LOG_ENTRIES} entries, not {len(documents)}: "
            "verify a longer game in parts",
            field="(body)",
        )
    dice = sum(declared_dice(document) for document in documents)
    if dice > MAX_DOCUMENT_DICE:
        return LimitError(
            f"a document to verify holds at most {MAX_DOCUMENT_DICE} dice in all, not {dice} "
            f"(a request rolls at most {MAX_DICE_PER_REQUEST} dice of 2 to {MAX_SIDES} sides)",
            field="(body)",
        )
    try:
        budget.current().afford(dice * DIE_WORK, f"re-deriving {dice} dice", SPLIT, "(body)")
    except LimitError as error:
        return error
    return None


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _name(value: Any) -> str | None:
    return value[:MAX_NAME] if isinstance(value, str) and _utf8(value) else None


def _count(value: Any) -> int | None:
    return value if type(value) is int and 0 <= value <= MAX_NONCE else None


@dataclass
class Entry:
    index: int
    document: Any
    signature_valid: bool = False
    dice_valid: bool | None = None
    receipt_hash: str | None = None
    found: list[tuple[EntryCode, str]] = field(default_factory=list)

    def get(self, *path: str) -> Any:
        value = self.document
        for name in path:
            value = value.get(name) if isinstance(value, dict) else None
        return value

    def add(self, code: EntryCode, message: str) -> None:
        self.found.append((code, message))

    @property
    def name(self) -> str:
        return entry_name(self.index)

    @property
    def rolled(self) -> bool:
        rolls = self.get("rolls")
        return isinstance(rolls, list) and bool(rolls)

    def as_dict(self) -> VerifiedEntry:
        found = capped(self.found, MAX_ENTRY_PROBLEMS)
        return {
            "index": self.index,
            "ruleset": _name(self.get("ruleset")),
            "step": _name(self.get("step")),
            "signature_valid": self.signature_valid,
            "dice_valid": self.dice_valid,
            "receipt_hash": self.receipt_hash,
            "problems": [message for _, message in found],
            "codes": [code for code, _ in found],
        }


def _read_rolls(entry: Entry) -> list[tuple[int, int]] | None:
    """(count, sides) of each roll, or None (with the problem) when it cannot be re-derived."""
    rolls = entry.get("rolls")
    if not isinstance(rolls, list):
        entry.add("rolls-missing", "`rolls` is missing: there are no dice to re-derive")
        return None
    read: list[tuple[int, int]] = []
    for index, roll in enumerate(rolls):
        parsed = _notation_of(roll)
        if parsed is None:
            notation = roll.get("notation") if isinstance(roll, dict) else None
            entry.add("notation", f"rolls[{index}]: cannot read the notation {show(notation)}")
            return None
        read.append(parsed)
    dice = sum(count for count, _ in read)
    if any(not 2 <= sides <= MAX_SIDES for _, sides in read) or dice > MAX_DICE_PER_REQUEST:
        entry.add(
            "limit",
            f"the rolls declare {dice} dice, some of more than {MAX_SIDES} sides or fewer "
            f"than 2, past what the service rolls ({MAX_DICE_PER_REQUEST} dice a request, "
            f"2 to {MAX_SIDES} sides): no answer of this service",
        )
        return None
    return read


def _rederive(entry: Entry, stream: Iterator[int], read: list[tuple[int, int]]) -> None:
    rolls = entry.get("rolls")
    before = len(entry.found)
    for index, ((count, sides), roll) in enumerate(zip(read, rolls, strict=True)):
        expected = list(dice_from_stream(stream, count, sides))
        if roll.get("values") != expected:
            entry.add(
                "dice-mismatch",
                f"rolls[{index}] ({show(roll.get('label'))}): the response says "
                f"{show(roll.get('values'))}, the seed and nonce give {show(expected)}",
            )
        elif roll.get("total") != sum(expected):
            entry.add(
                "total-mismatch",
                f"rolls[{index}] ({show(roll.get('label'))}): the total is not the sum",
            )
    entry.dice_valid = len(entry.found) == before


def _seed_text(entry: Entry, value: Any, what: str) -> str | None:
    if isinstance(value, str) and 1 <= len(value) <= MAX_SEED and _utf8(value):
        return value
    entry.dice_valid = False
    entry.add(
        "bad-seed",
        f"the {what} is not 1 to {MAX_SEED} characters of Unicode text (a lone surrogate "
        "escape has no UTF-8 form): no answer of this service",
    )
    return None


def _check_dice(entry: Entry, seals: SealKeys, now: int) -> None:
    dice = entry.get("dice")
    if dice is None and entry.get("rolls") is None:
        return  # a document without dice, e.g. the answer that sealed a seed
    mode = dice.get("mode") if isinstance(dice, dict) else None
    nonce = _count(dice.get("nonce")) if isinstance(dice, dict) else None
    if mode == SUPPLIED:
        entry.add(
            "supplied-dice",
            "the player supplied these dice: they cannot be re-derived "
            "(only seeded rolls and revealed sealed rolls can)",
        )
        return
    if mode not in (SEEDED, SEALED) or nonce is None:
        entry.dice_valid = False
        entry.add("no-dice", "`dice` names no seeded, sealed or supplied dice with a nonce")
        return
    read = _read_rolls(entry)
    if read is None:
        entry.dice_valid = False
        return
    if mode == SEEDED:
        seed = _seed_text(entry, dice.get("seed"), "seed")
        if seed is not None:
            _rederive(entry, byte_stream(seed, nonce), read)
        return
    client_seed = _seed_text(entry, dice.get("client_seed"), "client seed")
    if client_seed is None:
        return
    sent = asked(entry.document, "dice")
    token = sent.get("sealed") if isinstance(sent, dict) else None
    if not isinstance(token, str):
        entry.dice_valid = False
        entry.add("sealed-token", "a sealed roll whose request does not carry its token")
        return
    try:
        sealed = open_token(seals, token)
        until = rfc3339(sealed.reveal_after)
    except (RuleError, ValueError, OverflowError, OSError) as error:
        entry.dice_valid = False
        entry.add("sealed-token", getattr(error, "detail", None) or "the sealed token is unusable")
        return
    if now < sealed.reveal_after:
        entry.add(SEALED_NOT_YET, f"sealed until {until}: the dice can be re-derived then")
        return
    if commitment(sealed.seed) != dice.get("commitment"):
        entry.dice_valid = False
        entry.add("sealed-commitment", "the sealed seed does not match the commitment")
        return
    _rederive(entry, byte_stream(sealed_seed(sealed.seed, client_seed), nonce), read)


def check_entry(index: int, document: Any, keys: SigningKeys, seals: SealKeys, now: int) -> Entry:
    entry = Entry(index, document)
    if not isinstance(document, dict):
        entry.add("not-a-response", "not a response document (a JSON object)")
        return entry
    receipt = document.get("receipt")
    if isinstance(receipt, str) and _utf8(receipt):
        entry.receipt_hash = receipt_hash(receipt)
    checked = check_signature(keys, document)
    entry.signature_valid = checked.valid
    if checked.problem is not None and checked.code is not None:
        entry.add(checked.code, checked.problem)
    _check_dice(entry, seals, now)
    return entry


def _seed_of(entry: Entry) -> tuple[str, str] | None:
    mode = entry.get("dice", "mode")
    if mode == SEEDED:
        return ("seed", str(entry.get("dice", "seed")))
    if mode == SEALED:
        return ("commitment", str(entry.get("dice", "commitment")))
    if isinstance(entry.get("commitment"), str):  # the answer that sealed the seed
        return ("commitment", entry.get("commitment"))
    return None


@dataclass
class Carry:
    """What a checkpoint carries from the entries it vouches for to the next part: the
    entries checked so far, the last receipt's hash, the game's last nonce and whether its
    dice were shown, the game's seed (and client seed), ruleset and readings, and the turn
    left pending (its index and answer), if one is open."""

    entries: int
    receipt_hash: str | None
    nonce: int | None = None
    nonce_shown: bool = False
    seed: tuple[str, str] | None = None
    client_seed: Any = None
    game: tuple[str, Any] | None = None
    pending: tuple[int, Any] | None = None
    supplied: int = 0


def state_of(carry: Carry) -> CheckpointState:
    """The ``state`` a checkpoint signs (docs/verifiable-rolls.md, *Checkpoints*): only of
    a valid log, whose last entry's receipt has a hash."""
    seed: CheckpointSeed | None = None
    if carry.seed is not None:
        kind, value = carry.seed
        seed = (
            {"mode": SEEDED, "seed": value}
            if kind == "seed"
            else {"mode": SEALED, "commitment": value}
        )
    assert carry.receipt_hash is not None
    return {
        "format": CHECKPOINT_FORMAT,
        "entries": carry.entries,
        "receipt_hash": carry.receipt_hash,
        "nonce": carry.nonce,
        "nonce_shown": carry.nonce_shown,
        "seed": seed,
        "client_seed": carry.client_seed,
        "game": None if carry.game is None else {"ruleset": carry.game[0], "rules": carry.game[1]},
        "pending": None
        if carry.pending is None
        else {"index": carry.pending[0], "answer": carry.pending[1]},
        "supplied_entries": carry.supplied,
    }


def _index(value: Any) -> TypeGuard[int]:
    return type(value) is int and 0 <= value <= MAX_NONCE


def carry_of(state: Any) -> Carry | None:
    """The carry-over a checkpoint's ``state`` names, or None when it is not one."""
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        return None
    read: dict[str, Any] = state
    entries, hashed, nonce = read.get("entries"), read.get("receipt_hash"), read.get("nonce")
    seed, game, pending = read.get("seed"), read.get("game"), read.get("pending")
    client_seed, supplied = read.get("client_seed"), read.get("supplied_entries")
    if not (_index(entries) and entries >= 1 and isinstance(hashed, str) and HEX64.match(hashed)):
        return None
    if not (nonce is None or _index(nonce)) or type(state.get("nonce_shown")) is not bool:
        return None
    if not (_index(supplied) and (client_seed is None or isinstance(client_seed, str))):
        return None
    read_seed: tuple[str, str] | None = None
    if isinstance(seed, dict) and seed.get("mode") == SEEDED and isinstance(seed.get("seed"), str):
        read_seed = ("seed", seed["seed"])
    elif (
        isinstance(seed, dict)
        and seed.get("mode") == SEALED
        and isinstance(seed.get("commitment"), str)
    ):
        read_seed = ("commitment", seed["commitment"])
    elif seed is not None:
        return None
    if not (game is None or (isinstance(game, dict) and isinstance(game.get("ruleset"), str))):
        return None
    if not (
        pending is None
        or (
            isinstance(pending, dict)
            and _index(pending.get("index"))
            and isinstance(pending.get("answer"), dict)
        )
    ):
        return None
    return Carry(
        entries=entries,
        receipt_hash=hashed,
        nonce=nonce,
        nonce_shown=state["nonce_shown"],
        seed=read_seed,
        client_seed=client_seed,
        game=None if game is None else (game["ruleset"], game.get("rules")),
        pending=None if pending is None else (pending["index"], pending["answer"]),
        supplied=supplied,
    )


CHECKPOINT_MEMBERS = frozenset({"state", "provenance", "receipt"})
NOT_A_CHECKPOINT = (
    "the checkpoint is not one this service gives: an object of `state` "
    f"(format {CHECKPOINT_FORMAT}), `provenance` and `receipt`, as a verify answer's "
    "`checkpoint` holds it"
)


def read_checkpoint(
    keys: SigningKeys, document: Any
) -> tuple[Carry | None, ContinuesFrom, list[tuple[LogCode, str]]]:
    """The carry-over of a checkpoint, what the log's ``continues_from`` says of it, and its
    problems: a checkpoint whose signature does not hold is refused (``checkpoint-altered``),
    one of no known shape too (``checkpoint-unknown``)."""
    found: list[tuple[LogCode, str]] = []
    carry = None
    signed: bool = False
    if isinstance(document, dict) and set(document) == CHECKPOINT_MEMBERS:
        checked = check_signature(keys, document)
        signed = checked.valid
        if not signed:
            found.append(
                (
                    "checkpoint-altered",
                    f"the checkpoint's signature does not hold ({checked.problem}): it was "
                    "altered, or this service did not make it",
                )
            )
        carry = carry_of(document.get("state"))
    if carry is None:
        found.append(("checkpoint-unknown", NOT_A_CHECKPOINT))
    continues: ContinuesFrom = {
        "entries": carry.entries if carry else None,
        "receipt_hash": carry.receipt_hash if carry else None,
        "signature_valid": signed,
    }
    return carry, continues, found


@dataclass
class _Log:
    found: list[tuple[LogCode, str]] = field(default_factory=list)
    chain: bool = True
    head: bool = True
    nonces: bool = True
    one_seed: bool = True
    one_ruleset: bool = True

    def add(self, code: LogCode, message: str) -> None:
        self.found.append((code, message))


def _other_game(log: _Log, what: str) -> None:
    log.add(
        "checkpoint-other-game",
        f"the entries {what} than the checkpoint's game: the checkpoint is of another game",
    )


def _chain(log: _Log, entries: list[Entry], start: Carry | None) -> None:
    pairs = list(zip(entries, entries[1:], strict=False))
    if start is not None:  # the checkpoint's last entry comes before this part's first
        pairs.insert(
            0, (Entry(start.entries - 1, None, receipt_hash=start.receipt_hash), entries[0])
        )
    elif asked(entries[0].document, "prev") is not None:
        log.head = False
        log.add(
            "cut-head",
            f"{entries[0].name} carries a prev: the log does not start at the beginning of the "
            "game (its first entries are missing)",
        )
    for before, entry in pairs:
        prev = asked(entry.document, "prev")
        if prev is None:
            log.chain = False
            log.add("chain-restart", f"{entry.name} carries no prev: the chain starts again")
        elif prev != before.receipt_hash:
            log.chain = False
            log.add(
                "chain-broken",
                f"{entry.name}'s prev is not the hash of {before.name}'s receipt: "
                "an entry was removed, inserted, reordered or replayed",
            )


def game_rules(documents: list[Any]) -> tuple[str, Any] | None:
    """The ruleset and readings in force of a game: those of its first entry that names a
    ruleset (a seal or a game header that binds them, or its first step)."""
    for document in documents:
        ruleset = document.get("ruleset") if isinstance(document, dict) else None
        if isinstance(ruleset, str):
            return ruleset, document.get("rules")
    return None


def _one_ruleset(log: _Log, entries: list[Entry], start: Carry | None) -> tuple[str, Any] | None:
    """One game, one ruleset, one set of readings: an entry that names another ruleset, or
    other readings in force (``rules``, every ruling's reading, defaults included), is not
    of this game. A plain dice roll and an unbound seal name none and may join any game.
    After a checkpoint the game's are the checkpoint's. Answers the game's."""
    own = game_rules([entry.document for entry in entries])
    game = start.game if start is not None and start.game is not None else own
    if game is None:
        return None
    if own is not None and own != game:
        log.one_ruleset = False
        _other_game(log, "name another ruleset or other readings")
    for entry in entries:
        ruleset = entry.get("ruleset")
        if not isinstance(ruleset, str):
            continue
        if ruleset != game[0]:
            log.one_ruleset = False
            log.add(
                "ruleset-changed",
                f"{entry.name} is of the ruleset {show(ruleset)}, the game's is "
                f"{show(game[0])}: one game is played under one ruleset",
            )
        elif entry.get("rules") != game[1]:
            log.one_ruleset = False
            log.add(
                "readings-changed",
                f"{entry.name} reads the rules otherwise than the game's first entry "
                f"(its rules {show(entry.get('rules'))}): a reading is chosen once a game",
            )
    return game


def _nonce_step(log: _Log, entry: Entry, nonce: int, last: tuple[int, bool]) -> None:
    before, rolled_before = last
    if nonce == before:
        if rolled_before and entry.rolled:
            log.nonces = False
            log.add("nonce-repeat", f"{entry.name} repeats nonce {nonce}")
    elif nonce < before:
        log.nonces = False
        log.add("nonce-back", f"{entry.name} goes back from nonce {before} to {nonce}")
    elif nonce > before + 1:
        log.nonces = False
        missing = (
            f"nonce {before + 1} is"
            if nonce == before + 2
            else f"nonces {before + 1} to {nonce - 1} are"
        )
        log.add("nonce-gap", f"{entry.name}: {missing} missing before it")


def left_pending(document: Any) -> bool:
    """Whether ``document`` is a Salvo! turn answered ``result.pending``."""
    result = document.get("result") if isinstance(document, dict) else None
    return (
        isinstance(result, dict)
        and isinstance(result.get("pending"), dict)
        and document.get("ruleset") == "salvo-solo"
        and document.get("step") == "turn"
    )


# What a pending turn's finishing request may differ in: its own link, the player's
# Action, the dice written out (fresh dice are sent back as the seed and nonce the pending
# answer names) and the readings' spelling (compared as the readings in force instead):
# the members a request echoed by digest keeps as they were sent.
PENDING_FREE = KEPT


def _same_dice(before: Any, after: Any) -> bool:
    """The same dice: the answers' ``dice`` alike but for who chose the seed."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return False
    return {k: v for k, v in before.items() if k != "seed_source"} == {
        k: v for k, v in after.items() if k != "seed_source"
    }


def _question(answer: dict[str, Any]) -> tuple[str, Any] | None:
    """What a turn asked apart from ``PENDING_FREE``: the rest of its body, or the digest
    of that rest when the request was echoed by digest (the two forms are not compared:
    the two calls of one turn ask for their answers alike)."""
    provenance = answer.get("provenance")
    request = provenance.get("request") if isinstance(provenance, dict) else None
    if not isinstance(request, dict):
        return None
    body, digest = request.get("body"), request.get("rest_sha256")
    if isinstance(body, dict):
        return ("body", {k: v for k, v in body.items() if k not in PENDING_FREE})
    if isinstance(digest, str) and isinstance(request.get("sent"), dict):
        return ("rest_sha256", digest)
    return None


def finishes_pending_turn(before: Any, document: Any) -> bool:
    """Whether ``document`` is the second call of the Salvo! turn ``before`` left pending.

    A turn asked without the player's Action, when the enemy has the initiative, answers
    ``result.pending``; the request with ``player_action`` and the dice ``pending.dice``
    names finishes it, rolling the same opening dice again. The two make one turn, not a
    replay: the finishing request is the pending one plus ``player_action`` (its ``prev``,
    ``dice`` and ``rules`` aside), both answers show the same dice (whoever chose the seed)
    and the same readings in force, and its rolls begin with every roll of the pending
    answer. Seeded, fresh and sealed dice alike; both requests echoed whole, or both by
    digest (the same ``rest_sha256``).
    """
    if not (isinstance(before, dict) and isinstance(document, dict)):
        return False
    for answer in (before, document):
        if answer.get("ruleset") != "salvo-solo" or answer.get("step") != "turn":
            return False
    result = before.get("result")
    if not isinstance(result, dict) or not isinstance(result.get("pending"), dict):
        return False
    questions = [_question(answer) for answer in (before, document)]
    if questions[0] is None or questions[1] is None:
        return False
    if "player_action" in (echoed(before) or {}) or "player_action" not in (echoed(document) or {}):
        return False
    opening, rolls = before.get("rolls"), document.get("rolls")
    return (
        questions[0] == questions[1]
        and before.get("rules") == document.get("rules")
        and _same_dice(before.get("dice"), document.get("dice"))
        and isinstance(opening, list)
        and isinstance(rolls, list)
        and rolls[: len(opening)] == opening
    )


def _unfinished(log: _Log, pending: Entry, entry: Entry) -> None:
    log.nonces = False
    log.add(
        "pending-unfinished",
        f"{entry.name} does not finish the turn {pending.name} left pending "
        "(the same request with player_action and the dice pending.dice names): that turn "
        "was thrown away",
    )


def continue_log(
    entries: list[Entry],
    *,
    accept_supplied: bool = False,
    start: Carry | None = None,
    opening: tuple[tuple[LogCode, str], ...] = (),
) -> tuple[VerifiedLog, Carry]:
    """The log's checks, continuing from ``start`` (a checkpoint's) when given, as if the
    entries it vouches for came first; answers the report and what a checkpoint after these
    entries carries on."""
    log = _Log(found=list(opening))
    _chain(log, entries, start)
    rules = _one_ruleset(log, entries, start)
    own = next(
        (
            _seed_of(entry)
            for entry in entries
            if entry.rolled or isinstance(entry.get("commitment"), str)
            if _seed_of(entry) is not None
        ),
        None,
    )
    game = start.seed if start is not None and start.seed is not None else own
    if own is not None and own != game:
        log.one_seed = False
        _other_game(log, "roll from another seed")
    client_seed: Any = start.client_seed if start is not None else None
    last: tuple[int, bool] | None = None
    pending: Entry | None = None  # the game's last roll, when it left a turn pending
    supplied = 0
    if start is not None:
        if start.nonce is not None:
            last = (start.nonce, start.nonce_shown)
        if start.pending is not None:
            pending = Entry(*start.pending)
        supplied = start.supplied
        if supplied and not accept_supplied:
            log.add(
                "supplied-dice",
                f"{supplied} entries before the checkpoint: the players supplied their dice, "
                "in a game the service rolls from one seed (a referee who accepts table dice "
                "says accept_supplied)",
            )
    for entry in entries:
        if entry.get("dice", "mode") == SUPPLIED:
            supplied += 1
            if not accept_supplied:
                log.add(
                    "supplied-dice",
                    f"{entry.name}: the player supplied its dice, in a game the service "
                    "rolls from one seed (a referee who accepts table dice says accept_supplied)",
                )
            continue
        seed = _seed_of(entry)
        if seed is None or entry.get("dice") is None:
            continue  # the seal answer: its commitment is the game's seed, no nonce
        if seed != game:
            if entry.rolled:
                log.one_seed = False
                log.add(
                    "another-seed",
                    f"{entry.name} rolls from another {seed[0]} than the game's first: "
                    "a roll from another seed stands in for one of the game's",
                )
            continue  # a step that rolled nothing, e.g. with fresh server dice: no part
        if entry.get("dice", "mode") == SEALED:
            if client_seed is None:
                client_seed = entry.get("dice", "client_seed")
            elif entry.get("dice", "client_seed") != client_seed:
                log.one_seed = False
                log.add("client-seed-changed", f"{entry.name} changes the client seed")
        nonce = _count(entry.get("dice", "nonce"))
        if nonce is None:
            continue
        if last is None and nonce > 1:
            log.head = False
            log.add(
                "cut-head",
                f"{entry.name}'s first roll has nonce {nonce}: the log does not start at "
                "the beginning of the game (nonce 0 or 1 comes first)",
            )
        elif last is not None:
            # A step that rolls nothing (advice on the pending turn, say) leaves it pending;
            # the next roll of the game must finish it.
            one_turn = False
            if pending is not None and entry.rolled:
                one_turn = finishes_pending_turn(pending.document, entry.document)
                if not one_turn:
                    _unfinished(log, pending, entry)
            if not one_turn:  # the finishing call shares the pending one's dice and nonce
                _nonce_step(log, entry, nonce, last)
        if entry.rolled:
            pending = entry if left_pending(entry.document) else None
        # A nonce whose dice were shown stays shown: a step that rolled nothing under the
        # same nonce does not make it fresh for the next roll.
        shown = entry.rolled or (last is not None and nonce == last[0] and last[1])
        last = (nonce, shown)
    final = entries[-1]
    carry = Carry(
        entries=final.index + 1,
        receipt_hash=final.receipt_hash,
        nonce=last[0] if last is not None else None,
        nonce_shown=last[1] if last is not None else False,
        seed=game,
        client_seed=client_seed,
        game=rules,
        pending=(pending.index, pending.document) if pending is not None else None,
        supplied=supplied,
    )
    report: VerifiedLog = {
        "entries": len(entries),
        "chain_unbroken": log.chain,
        "starts_at_beginning": log.head,
        "nonces_consecutive": log.nonces,
        "one_seed": log.one_seed,
        "one_ruleset": log.one_ruleset,
        "supplied_entries": supplied,
        "accept_supplied": accept_supplied,
        "ends_with": {
            "index": final.index,
            "receipt_hash": final.receipt_hash,
            "nonce": last[0] if last is not None else None,
        },
        "continues_from": None,
        "problems": [message for _, message in capped(log.found, MAX_LOG_PROBLEMS)],
        "codes": [code for code, _ in capped(log.found, MAX_LOG_PROBLEMS)],
    }
    return report, carry


def check_log(entries: list[Entry], *, accept_supplied: bool = False) -> VerifiedLog:
    """The log's checks from the beginning of the game (``continue_log`` without a start)."""
    return continue_log(entries, accept_supplied=accept_supplied)[0]


# The verdicts (answers.py): every check held; something is wrong; nothing is wrong yet, but
# sealed rolls wait for their reveal (no die of theirs was checked, so the log is not valid).


def log_checks(report: VerifiedLog) -> tuple[bool, ...]:
    """The log's checks that must all hold."""
    return (
        report["chain_unbroken"],
        report["starts_at_beginning"],
        report["nonces_consecutive"],
        report["one_seed"],
        report["one_ruleset"],
    )


def check(
    documents: list[Any],
    keys: SigningKeys,
    seals: SealKeys,
    now: int,
    *,
    log: bool,
    accept_supplied: bool = False,
    checkpoint: Any = None,
    sign: Callable[[CheckpointState], Checkpoint] | None = None,
) -> VerifyResponse:
    """The verdict on one response (``log=False``) or a game log, or on the next part of
    one after ``checkpoint`` (a checkpoint document; the part is then a log). Call
    ``document_limits`` first: this re-derives every die the document declares. The
    report's ``checkpoint`` is what ``sign`` makes of the ``state`` a checkpoint after
    these entries signs, when the log (with what the checkpoint vouches for) is valid and
    ``sign`` is given; else None."""
    start: Carry | None = None
    continues: ContinuesFrom | None = None
    opening: list[tuple[LogCode, str]] = []
    if checkpoint is not None:
        start, continues, opening = read_checkpoint(keys, checkpoint)
        log = True
    offset = start.entries if start is not None else 0
    entries = []
    for i, doc in enumerate(documents):
        _charge(SIGNATURE_WORK + declared_dice(doc) * DIE_WORK, f"checking {entry_name(i)}")
        entries.append(check_entry(offset + i, doc, keys, seals, now))
    report: VerifiedLog | None = None
    carry: Carry | None = None
    if log:
        report, carry = continue_log(
            entries, accept_supplied=accept_supplied, start=start, opening=tuple(opening)
        )
        report["continues_from"] = continues
    holds = all(e.signature_valid and e.dice_valid is not False for e in entries)
    if report is not None:
        holds = (
            holds
            and all(log_checks(report))
            and (accept_supplied or not report["supplied_entries"])
            and not opening
        )
    waiting = sum(any(code == SEALED_NOT_YET for code, _ in e.found) for e in entries)
    verdict: Verdict = VALID if holds and not waiting else NOT_YET if holds else INVALID
    return {
        "valid": verdict == VALID,
        "verdict": verdict,
        "not_yet_checkable": waiting,
        "entries": [e.as_dict() for e in entries],
        "log": report,
        "checkpoint": sign(state_of(carry))
        if sign is not None and carry is not None and verdict == VALID
        else None,
    }
