#!/usr/bin/env python3
"""Check a saved Fire Control response, or a game log, without the service.

    python3 verify_dice.py --jwks jwks.json [--accept-supplied] [--json] \
        game.json [revealed.json ...]
    python3 verify_dice.py --dice-only game.json     # the dice alone, no signatures
    python3 verify_dice.py --jwks jwks.json part1.json --part part2.json --part part3.json
    python3 verify_dice.py --jwks jwks.json --checkpoint answer1.json part2.json

It checks what POST /v1/receipts/verify checks, with the same problem codes and words:
the receipts (Ed25519 signatures over the RFC 8785 canonical JSON, against the saved
/.well-known/jwks.json given with --jwks; this needs the `cryptography` package, and the
verifier says plainly when it could not check them), every die re-derived from its seed
and nonce, and for a log: the chain of `prev` hashes, a log that does not start at the
beginning of its game, the nonces counting up by one, one seed (or one sealed seed and
client seed) throughout, dice the player supplied (refused in a log unless
--accept-supplied), and a body that names a member twice in one object (RFC 7493).
A game longer than one log holds is checked in parts: --part gives the next parts in order,
each checked as if the parts before it came first; a part saved with the service's signed
checkpoint (`{"checkpoint": ..., "entries": [...]}`, or --checkpoint) continues from it, its
signature checked against --jwks.
Sealed rolls (fc-dice-sealed-v1) are checked once their seed is revealed: pass the saved
answers of POST /v1/seeds/reveal after the log; each revealed seed must hash to the
commitment. Before that they are "not yet checkable", not a mismatch.

Exit status, one per verdict (`verdict` in the --json output says the same): 0 `valid`,
every signature checked and every die re-derived; 1 `invalid`, something is wrong; 2 a file
cannot be read; 3 `signatures-not-checked`, nothing wrong in the dice but no --jwks (or no
`cryptography`), so nothing shows the answers are the service's; 4 `not-yet-checkable`,
nothing wrong so far but sealed rolls wait for their reveal. --dice-only asks for the dice
alone without keys: 0 `dice-valid` when they hold. Every text names an entry counting
from 1, as players do ("entry 1" is the first); the `index` members of the --json verdict
count from 0, as POST /v1/receipts/verify's do.

Standard library only (plus `cryptography`, when importable, for the signatures); it
imports nothing of the service. The algorithm (fc-dice-v1) is described in docs/dice.md:
  bytes = HMAC-SHA256(key=UTF-8(seed), msg=ASCII("fc-dice-v1:<nonce>:<block>")), block 0, 1, ...
  a die of S sides reads 1 byte (S <= 256) or 2 bytes big-endian (S <= 65536) as n;
  n >= limit (256**width - 256**width % S) is discarded, otherwise the die is n % S + 1.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import math
import re
import sys

try:  # optional: without it the signatures are not checked, and the verifier says so
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ImportError:  # pragma: no cover - depends on the machine
    Ed25519PublicKey = None  # type: ignore[assignment,misc]

ALGORITHM = "fc-dice-v1"
SEALED_ALGORITHM = "fc-dice-sealed-v1"
NOTATION = re.compile(r"^([1-9]\d{0,6})d([1-9]\d{0,6})$")
DETACHED = re.compile(r"[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+")
# The service's limits (service/engine/dice.py, service/receipts/checking.py).
MAX_SIDES = 1000
MAX_DICE_PER_REQUEST = 1000
MAX_NONCE = 2**53 - 1
MAX_SEED = 256
MAX_LOG_ENTRIES = 100
MAX_DOCUMENT_DICE = 10 * MAX_DICE_PER_REQUEST
MAX_ENTRY_PROBLEMS = 5
MAX_LOG_PROBLEMS = 20
MAX_ECHO = 60
# The dice modes, the service's fixed set DiceMode (service/receipts/answers.py): this tool
# imports nothing of the service, so tests/test_fixed_sets.py checks these are its members.
SEEDED, SUPPLIED, SEALED = "seeded", "supplied", "sealed"
SEALED_NOT_YET = "sealed-not-yet-checkable"
REVEAL_MISMATCH = "reveal-mismatch"
# What a reveal whose seed does not hash to its commitment stands for among the revealed seeds:
# a reveal was passed for that commitment, so its rolls are wrong, not waiting.
FORGED = object()


# --- the dice -----------------------------------------------------------------------------


def stream(seed: str, nonce: int):
    block = 0
    while True:
        message = f"{ALGORITHM}:{nonce}:{block}".encode("ascii")
        yield from hmac.new(seed.encode("utf-8"), message, hashlib.sha256).digest()
        block += 1


def die(source, sides: int) -> int:
    width = 1 if sides <= 256 else 2
    bound = 256**width
    limit = bound - bound % sides
    while True:
        number = 0
        for _ in range(width):
            number = number * 256 + next(source)
        if number < limit:
            return number % sides + 1


# --- reading: I-JSON ------------------------------------------------------------------------


class Duplicate(ValueError):
    pass


class _Pairs(list):
    pass


def _unique(pairs):
    found = dict(pairs)
    if len(found) != len(pairs):
        raise Duplicate
    return found


def _where(value, path):
    if isinstance(value, _Pairs):
        seen = set()
        for name, item in value:
            if name in seen:
                return (*path, name)
            seen.add(name)
            inner = _where(item, (*path, name))
            if inner is not None:
                return inner
    elif isinstance(value, list):
        for index, item in enumerate(value):
            inner = _where(item, (*path, str(index)))
            if inner is not None:
                return inner
    return None


def read_json(text: str):
    """The document, or raises Duplicate(field, message) for a member named twice."""
    try:
        return json.loads(text, object_pairs_hook=_unique)
    except Duplicate:
        try:
            where = _where(json.loads(text, object_pairs_hook=_Pairs), ())
        except (RecursionError, ValueError):
            where = None
        named = f" {where[-1]!r}" if where else ""
        message = (
            f"Duplicate member name{named}: an object names it twice. Request bodies are I-JSON "
            "(RFC 7493): each name at most once in an object."
        )
        raise Duplicate(".".join(where) if where else "(body)", message) from None


# --- RFC 8785 canonical JSON --------------------------------------------------------------


class NoCanonicalForm(ValueError):
    pass


def _number(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) > 2**53 - 1:
            raise NoCanonicalForm("an integer past 2^53")
        return str(value)
    if not math.isfinite(value):
        raise NoCanonicalForm("NaN or Infinity")
    if value == 0:
        return "0"
    # ECMAScript Number.prototype.toString over the shortest round-trip digits
    mantissa, _, exponent = repr(abs(value)).partition("e")
    digits = mantissa.replace(".", "")
    point = (mantissa.index(".") if "." in mantissa else len(mantissa)) + int(exponent or 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0") or "0"
    sign = "-" if value < 0 else ""
    if len(digits) <= point <= 21:
        return sign + digits + "0" * (point - len(digits))
    if 0 < point <= 21:
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * -point + digits
    shown = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    power = point - 1
    return f"{sign}{shown}e{'+' if power > 0 else '-'}{abs(power)}"


def _canonical(value, out: list) -> None:
    if value is None or isinstance(value, str):
        out.append(json.dumps(value, ensure_ascii=False))
    elif isinstance(value, (bool, int, float)):
        out.append(_number(value))
    elif isinstance(value, list):
        out.append("[")
        for index, item in enumerate(value):
            if index:
                out.append(",")
            _canonical(item, out)
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        names = sorted(value, key=lambda name: name.encode("utf-16-be", "surrogatepass"))
        for index, name in enumerate(names):
            if index:
                out.append(",")
            out.append(json.dumps(name, ensure_ascii=False) + ":")
            _canonical(value[name], out)
        out.append("}")
    else:  # pragma: no cover - decoded JSON holds nothing else
        raise NoCanonicalForm(type(value).__name__)


def canonical_json(value) -> bytes:
    out: list = []
    try:
        _canonical(value, out)
        return "".join(out).encode("utf-8")
    except UnicodeEncodeError:
        raise NoCanonicalForm("text that is not Unicode") from None
    except RecursionError:
        raise NoCanonicalForm("nested too deep") from None


# --- receipts -----------------------------------------------------------------------------


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def canonical_b64url(text: str) -> bool:
    """base64url as the service writes it: unpadded, a length some bytes have, spare bits 0."""
    if len(text) % 4 == 1:
        return False
    try:
        return base64.urlsafe_b64encode(_unb64(text)).rstrip(b"=").decode() == text
    except ValueError:
        return False


def load_keys(jwks) -> dict:
    """kid -> Ed25519 public key, from a saved /.well-known/jwks.json."""
    found = {}
    for key in jwks.get("keys", []) if isinstance(jwks, dict) else []:
        if key.get("kty") == "OKP" and key.get("crv") == "Ed25519" and "kid" in key:
            found[key["kid"]] = Ed25519PublicKey.from_public_bytes(_unb64(key["x"]))
    return found


def check_signature(keys, document):
    """(valid, code, message): valid is None when there are no keys to check with."""
    receipt = document.get("receipt")
    if not isinstance(receipt, str) or not DETACHED.fullmatch(receipt):
        return False, "no-receipt", "no receipt: `receipt` must be a detached JWS (header..sig)"
    head, _, signature = receipt.partition("..")
    if not (canonical_b64url(head) and canonical_b64url(signature)):
        return (
            False,
            "receipt-not-canonical",
            "the receipt is not spelled as the service writes it (base64url with its spare "
            "bits zero): another spelling of a receipt is another receipt",
        )
    try:
        header = json.loads(_unb64(head))
    except (ValueError, TypeError):
        header = None
    if not isinstance(header, dict) or header.get("alg") != "Ed25519":
        return False, "bad-header", "the receipt's header is not an Ed25519 JWS header"
    if keys is None:
        return None, None, None
    kid = header.get("kid")
    key = keys.get(kid) if isinstance(kid, str) else None
    if key is None:
        shown = json.dumps(kid, ensure_ascii=True)[:60]
        return False, "unknown-key", f"the receipt names a key this service does not know: {shown}"
    try:
        content = {name: value for name, value in document.items() if name != "receipt"}
        payload = base64.urlsafe_b64encode(canonical_json(content)).rstrip(b"=")
    except NoCanonicalForm as error:
        return False, "no-canonical-form", f"the document has no RFC 8785 form ({error})"
    try:
        key.verify(_unb64(signature), head.encode("ascii") + b"." + payload)
    except (InvalidSignature, ValueError):
        return False, "altered", "the signature does not match the document: it was altered"
    provenance = document.get("provenance")
    if not isinstance(provenance, dict) or provenance.get("kid") != kid:
        return False, "provenance-kid", "the provenance names another key than the receipt"
    return True, None, None


# --- one entry ----------------------------------------------------------------------------


def show(value) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= MAX_ECHO else text[: MAX_ECHO - 3] + "..."


def entry_name(index) -> str:
    """How every text names an entry: counting from 1, as players do (`index` counts from 0)."""
    return f"entry {index + 1}"


def capped(found, limit):
    if len(found) <= limit:
        return found
    return [*found[:limit], ("more", f"... and {len(found) - limit} more")]


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _count(value):
    return value if type(value) is int and 0 <= value <= MAX_NONCE else None


def _get(document, *path):
    for name in path:
        document = document.get(name) if isinstance(document, dict) else None
    return document


def _echoed(document):
    """The request members a response's provenance shows: its whole ``body``, or under
    ``Prefer: return=minimal`` the members it kept as sent (``sent``) beside the digest of
    the rest (``rest_sha256``)."""
    request = _get(document, "provenance", "request")
    body = _get(request, "body")
    if not isinstance(body, dict):
        body = _get(request, "sent")
    return body if isinstance(body, dict) else None


def _asked(document, name):
    """The member ``name`` of the request a response answers, from either echo."""
    return _get(_echoed(document), name)


def _rolled(document) -> bool:
    rolls = _get(document, "rolls")
    return isinstance(rolls, list) and bool(rolls)


def declared_dice(document) -> int:
    rolls = _get(document, "rolls")
    total = 0
    for roll in rolls if isinstance(rolls, list) else ():
        notation = roll.get("notation") if isinstance(roll, dict) else None
        match = NOTATION.match(notation) if isinstance(notation, str) else None
        total += int(match.group(1)) if match else 0
    return total


def document_limit(documents):
    if len(documents) > MAX_LOG_ENTRIES:
        return (
            f"a log to verify holds at most {MAX_LOG_ENTRIES} entries, not {len(documents)}: "
            "verify a longer game in parts"
        )
    dice = sum(declared_dice(document) for document in documents)
    if dice > MAX_DOCUMENT_DICE:
        return (
            f"a document to verify holds at most {MAX_DOCUMENT_DICE} dice in all, not {dice} "
            f"(a request rolls at most {MAX_DICE_PER_REQUEST} dice of 2 to {MAX_SIDES} sides)"
        )
    return None


class Entry:
    def __init__(self, index, document):
        self.index = index
        self.document = document
        self.signature_valid = False
        self.dice_valid = None
        self.receipt_hash = None
        self.found = []
        self.rolls_matched = 0

    @property
    def name(self):
        return entry_name(self.index)

    def add(self, code, message):
        self.found.append((code, message))

    def as_dict(self):
        found = capped(self.found, MAX_ENTRY_PROBLEMS)
        return {
            "index": self.index,
            "signature_valid": self.signature_valid,
            "dice_valid": self.dice_valid,
            "receipt_hash": self.receipt_hash,
            "problems": [message for _, message in found],
            "codes": [code for code, _ in found],
        }


def _read_rolls(entry):
    rolls = _get(entry.document, "rolls")
    if not isinstance(rolls, list):
        entry.add("rolls-missing", "`rolls` is missing: there are no dice to re-derive")
        return None
    read = []
    for index, roll in enumerate(rolls):
        notation = roll.get("notation") if isinstance(roll, dict) else None
        match = NOTATION.match(notation) if isinstance(notation, str) else None
        if match is None:
            entry.add("notation", f"rolls[{index}]: cannot read the notation {show(notation)}")
            return None
        read.append((int(match.group(1)), int(match.group(2))))
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


def _rederive(entry, source, read):
    rolls = _get(entry.document, "rolls")
    before = len(entry.found)
    for index, ((count, sides), roll) in enumerate(zip(read, rolls, strict=False)):
        expected = [die(source, sides) for _ in range(count)]
        label = show(roll.get("label"))
        if roll.get("values") != expected:
            entry.add(
                "dice-mismatch",
                f"rolls[{index}] ({label}): the response says {show(roll.get('values'))}, "
                f"the seed and nonce give {show(expected)}",
            )
        elif roll.get("total") != sum(expected):
            entry.add("total-mismatch", f"rolls[{index}] ({label}): the total is not the sum")
    entry.dice_valid = len(entry.found) == before
    entry.rolls_matched = len(read) if entry.dice_valid else 0


def _seed_text(entry, value, what):
    if isinstance(value, str) and 1 <= len(value) <= MAX_SEED and _utf8(value):
        return value
    entry.dice_valid = False
    entry.add(
        "bad-seed",
        f"the {what} is not 1 to {MAX_SEED} characters of Unicode text (a lone surrogate "
        "escape has no UTF-8 form): no answer of this service",
    )
    return None


def check_dice(entry, revealed):
    dice = _get(entry.document, "dice")
    if dice is None and _get(entry.document, "rolls") is None:
        return
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
            _rederive(entry, stream(seed, nonce), read)
        return
    client_seed = _seed_text(entry, dice.get("client_seed"), "client seed")
    if client_seed is None:
        return
    commitment = dice.get("commitment")
    server_seed = revealed.get(commitment) if isinstance(commitment, str) else None
    if server_seed is FORGED:
        entry.dice_valid = False
        entry.add(
            REVEAL_MISMATCH,
            f"sealed roll (commitment {show(commitment)}): the reveal passed for it does not "
            "match (its seed does not hash to the commitment), so these dice cannot be "
            "re-derived from it",
        )
        return
    if server_seed is None:
        entry.add(
            SEALED_NOT_YET,
            f"sealed roll (commitment {show(dice.get('commitment'))}): pass the revealed seed "
            "(the saved answer of POST /v1/seeds/reveal) to re-derive it",
        )
        return
    _rederive(entry, stream(f"{server_seed}:{client_seed}", nonce), read)


def check_entry(index, document, keys, revealed):
    entry = Entry(index, document)
    if not isinstance(document, dict):
        entry.add("not-a-response", "not a response document (a JSON object)")
        return entry
    receipt = document.get("receipt")
    if isinstance(receipt, str) and _utf8(receipt):
        entry.receipt_hash = hashlib.sha256(receipt.encode("utf-8")).hexdigest()
    valid, code, message = check_signature(keys, document)
    entry.signature_valid = valid
    if code:
        entry.add(code, message)
    check_dice(entry, revealed)
    return entry


# --- the log ------------------------------------------------------------------------------


def _seed_of(document):
    mode = _get(document, "dice", "mode")
    if mode == SEEDED:
        return ("seed", str(_get(document, "dice", "seed")))
    if mode == SEALED:
        return ("commitment", str(_get(document, "dice", "commitment")))
    if isinstance(_get(document, "commitment"), str):
        return ("commitment", document["commitment"])
    return None


# What a pending turn's finishing request may differ in: its prev, the player's Action,
# the dice written out (fresh dice come back as pending.dice) and the readings' spelling;
# the members a request echoed by digest keeps as they were sent.
PENDING_FREE = frozenset({"prev", "player_action", "dice", "rules"})


def _question(answer):
    """What a turn asked apart from PENDING_FREE: the rest of its body, or that rest's
    digest when the request was echoed by digest (the two calls of one turn ask alike)."""
    request = _get(answer, "provenance", "request")
    body, digest = _get(request, "body"), _get(request, "rest_sha256")
    if isinstance(body, dict):
        return ("body", {k: v for k, v in body.items() if k not in PENDING_FREE})
    if isinstance(digest, str) and isinstance(_get(request, "sent"), dict):
        return ("rest_sha256", digest)
    return None


def _same_dice(before, after) -> bool:
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return False
    return {k: v for k, v in before.items() if k != "seed_source"} == {
        k: v for k, v in after.items() if k != "seed_source"
    }


def finishes_pending_turn(before, document) -> bool:
    """The second call of a Salvo! turn left pending: the same request plus player_action
    (prev, dice and rules aside), the same dice and readings in force in both answers, its
    rolls beginning with the pending answer's. One turn, not a replay."""
    if not all(
        isinstance(answer, dict)
        and answer.get("ruleset") == "salvo-solo"
        and answer.get("step") == "turn"
        for answer in (before, document)
    ) or not isinstance(_get(before, "result", "pending"), dict):
        return False
    questions = [_question(answer) for answer in (before, document)]
    if questions[0] is None or questions[1] is None:
        return False
    if "player_action" in (_echoed(before) or {}) or "player_action" not in (
        _echoed(document) or {}
    ):
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


def left_pending(document) -> bool:
    """A Salvo! turn answered result.pending."""
    return (
        isinstance(_get(document, "result", "pending"), dict)
        and _get(document, "ruleset") == "salvo-solo"
        and _get(document, "step") == "turn"
    )


def game_rules(documents):
    """The ruleset and readings in force of the game: its first entry's that names a ruleset."""
    for document in documents:
        if isinstance(_get(document, "ruleset"), str):
            return document["ruleset"], document.get("rules")
    return None


def _other_game(found, what):
    found.append(
        (
            "checkpoint-other-game",
            f"the entries {what} than the checkpoint's game: the checkpoint is of another game",
        )
    )


def one_ruleset(entries, found, start=None):
    """One game, one ruleset, one set of readings in force; a plain roll names none. After
    a checkpoint the game's are the checkpoint's. Answers (holds, the game's)."""
    own = game_rules([entry.document for entry in entries])
    game = start["game"] if start is not None and start["game"] is not None else own
    holds = True
    if own is not None and game is not None and own != game:
        holds = False
        _other_game(found, "name another ruleset or other readings")
    for entry in entries if game is not None else ():
        ruleset = _get(entry.document, "ruleset")
        if not isinstance(ruleset, str):
            continue
        if ruleset != game[0]:
            holds = False
            found.append(
                (
                    "ruleset-changed",
                    f"{entry.name} is of the ruleset {show(ruleset)}, the game's is "
                    f"{show(game[0])}: one game is played under one ruleset",
                )
            )
        elif entry.document.get("rules") != game[1]:
            holds = False
            found.append(
                (
                    "readings-changed",
                    f"{entry.name} reads the rules otherwise than the game's first entry "
                    f"(its rules {show(entry.document.get('rules'))}): a reading is chosen once "
                    "a game",
                )
            )
    return holds, game


def check_log(entries, accept_supplied, start=None, opening=()):
    """The log's checks, continuing from ``start`` (a checkpoint's carry-over) when given,
    as if the entries it vouches for came first. The report's ``_carry`` is what a
    checkpoint after these entries carries on."""
    found = list(opening)
    flags = {"chain": True, "head": True, "nonces": True, "one_seed": True}
    pairs = list(zip(entries, entries[1:], strict=False))
    if start is not None:  # the checkpoint's last entry comes before this part's first
        before = Entry(start["entries"] - 1, None)
        before.receipt_hash = start["receipt_hash"]
        pairs.insert(0, (before, entries[0]))
    elif _asked(entries[0].document, "prev") is not None:
        flags["head"] = False
        found.append(
            (
                "cut-head",
                f"{entries[0].name} carries a prev: the log does not start at the beginning of the "
                "game (its first entries are missing)",
            )
        )
    for before, entry in pairs:
        prev = _asked(entry.document, "prev")
        if prev is None:
            flags["chain"] = False
            found.append(("chain-restart", f"{entry.name} carries no prev: the chain starts again"))
        elif prev != before.receipt_hash:
            flags["chain"] = False
            found.append(
                (
                    "chain-broken",
                    f"{entry.name}'s prev is not the hash of {before.name}'s "
                    "receipt: an entry was removed, inserted, reordered or replayed",
                )
            )
    flags["one_ruleset"], rules = one_ruleset(entries, found, start)
    own = next(
        (
            _seed_of(e.document)
            for e in entries
            if _rolled(e.document) or isinstance(_get(e.document, "commitment"), str)
            if _seed_of(e.document) is not None
        ),
        None,
    )
    game = start["seed"] if start is not None and start["seed"] is not None else own
    if own is not None and own != game:
        flags["one_seed"] = False
        _other_game(found, "roll from another seed")
    client_seed = start["client_seed"] if start is not None else None
    last = None
    pending = None  # the game's last roll, when it left a turn pending
    supplied = 0
    if start is not None:
        if start["nonce"] is not None:
            last = (start["nonce"], start["nonce_shown"])
        if start["pending"] is not None:
            pending = Entry(*start["pending"])
        supplied = start["supplied"]
        if supplied and not accept_supplied:
            found.append(
                (
                    "supplied-dice",
                    f"{supplied} entries before the checkpoint: the players supplied their "
                    "dice, in a game the service rolls from one seed (a referee who accepts "
                    "table dice says accept_supplied)",
                )
            )
    for entry in entries:
        document = entry.document
        if _get(document, "dice", "mode") == SUPPLIED:
            supplied += 1
            if not accept_supplied:
                found.append(
                    (
                        "supplied-dice",
                        f"{entry.name}: the player supplied its dice, in a game the "
                        "service rolls from one seed (a referee who accepts table dice says "
                        "accept_supplied)",
                    )
                )
            continue
        seed = _seed_of(document)
        if seed is None or _get(document, "dice") is None:
            continue
        if seed != game:
            if _rolled(document):
                flags["one_seed"] = False
                found.append(
                    (
                        "another-seed",
                        f"{entry.name} rolls from another {seed[0]} than the game's "
                        "first: a roll from another seed stands in for one of the game's",
                    )
                )
            continue
        if _get(document, "dice", "mode") == SEALED:
            if client_seed is None:
                client_seed = _get(document, "dice", "client_seed")
            elif _get(document, "dice", "client_seed") != client_seed:
                flags["one_seed"] = False
                found.append(("client-seed-changed", f"{entry.name} changes the client seed"))
        nonce = _count(_get(document, "dice", "nonce"))
        if nonce is None:
            continue
        rolled = _rolled(document)
        if last is None and nonce > 1:
            flags["head"] = False
            found.append(
                (
                    "cut-head",
                    f"{entry.name}'s first roll has nonce {nonce}: the log does not start "
                    "at the beginning of the game (nonce 0 or 1 comes first)",
                )
            )
        elif last is not None:
            before, rolled_before = last
            # a step that rolls nothing (advice on the pending turn) leaves it pending
            one_turn = False
            if pending is not None and rolled:
                one_turn = finishes_pending_turn(pending.document, document)
                if not one_turn:
                    flags["nonces"] = False
                    found.append(
                        (
                            "pending-unfinished",
                            f"{entry.name} does not finish the turn {pending.name} left "
                            "pending (the same request with player_action and the dice "
                            "pending.dice names): that turn was thrown away",
                        )
                    )
            if one_turn:
                pass  # the second call of one turn: the pending call's dice and nonce
            elif nonce == before:
                if rolled_before and rolled:
                    flags["nonces"] = False
                    found.append(("nonce-repeat", f"{entry.name} repeats nonce {nonce}"))
            elif nonce < before:
                flags["nonces"] = False
                found.append(
                    (
                        "nonce-back",
                        f"{entry.name} goes back from nonce {before} to {nonce}",
                    )
                )
            elif nonce > before + 1:
                flags["nonces"] = False
                missing = (
                    f"nonce {before + 1} is"
                    if nonce == before + 2
                    else f"nonces {before + 1} to {nonce - 1} are"
                )
                found.append(("nonce-gap", f"{entry.name}: {missing} missing before it"))
        if rolled:
            pending = entry if left_pending(document) else None
        # a nonce whose dice were shown stays shown, whatever rolled nothing under it since
        shown = rolled or (last is not None and nonce == last[0] and last[1])
        last = (nonce, shown)
    shown = capped(found, MAX_LOG_PROBLEMS)
    return {
        "entries": len(entries),
        "chain_unbroken": flags["chain"],
        "starts_at_beginning": flags["head"],
        "nonces_consecutive": flags["nonces"],
        "one_seed": flags["one_seed"],
        "one_ruleset": flags["one_ruleset"],
        "supplied_entries": supplied,
        "accept_supplied": accept_supplied,
        "ends_with": {
            "index": entries[-1].index,
            "receipt_hash": entries[-1].receipt_hash,
            "nonce": last[0] if last is not None else None,
        },
        "continues_from": None,
        "problems": [message for _, message in shown],
        "codes": [code for code, _ in shown],
        "_carry": {
            "entries": entries[-1].index + 1,
            "receipt_hash": entries[-1].receipt_hash,
            "nonce": last[0] if last is not None else None,
            "nonce_shown": last[1] if last is not None else False,
            "seed": game,
            "client_seed": client_seed,
            "game": rules,
            "pending": (pending.index, pending.document) if pending is not None else None,
            "supplied": supplied,
        },
    }


LOG_CHECKS = (
    "chain_unbroken",
    "starts_at_beginning",
    "nonces_consecutive",
    "one_seed",
    "one_ruleset",
)


# The verdicts, and the exit status of each (2: a file cannot be read). The service gives
# the first three; the last two are this verifier's own, when it had no keys.
VALID, INVALID, NOT_YET = "valid", "invalid", "not-yet-checkable"
UNSIGNED, DICE_ONLY = "signatures-not-checked", "dice-valid"
EXIT = {VALID: 0, INVALID: 1, UNSIGNED: 3, NOT_YET: 4, DICE_ONLY: 0}


def verdict_of(holds, waiting, keys_given, dice_only):
    """One word for the whole verdict: what the exit status says too."""
    if not holds:
        return INVALID
    if not keys_given and not dice_only:
        return UNSIGNED  # nothing wrong in the dice, but no signature was checked
    if waiting:
        return NOT_YET
    return VALID if keys_given else DICE_ONLY


CHECKPOINT_FORMAT = "fc-checkpoint-v1"
CHECKPOINT_MEMBERS = {"state", "provenance", "receipt"}
HEX64 = re.compile(r"^[0-9a-f]{64}$")
NOT_A_CHECKPOINT = (
    "the checkpoint is not one this service gives: an object of `state` "
    f"(format {CHECKPOINT_FORMAT}), `provenance` and `receipt`, as a verify answer's "
    "`checkpoint` holds it"
)


def _index(value) -> bool:
    return type(value) is int and 0 <= value <= MAX_NONCE


def carry_of(state):
    """The carry-over a checkpoint's ``state`` names, or None when it is not one."""
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        return None
    entries, hashed, nonce = state.get("entries"), state.get("receipt_hash"), state.get("nonce")
    seed, game, pending = state.get("seed"), state.get("game"), state.get("pending")
    client_seed, supplied = state.get("client_seed"), state.get("supplied_entries")
    if not (_index(entries) and entries >= 1 and isinstance(hashed, str) and HEX64.match(hashed)):
        return None
    if not (nonce is None or _index(nonce)) or type(state.get("nonce_shown")) is not bool:
        return None
    if not (_index(supplied) and (client_seed is None or isinstance(client_seed, str))):
        return None
    if isinstance(seed, dict) and seed.get("mode") == SEEDED and isinstance(seed.get("seed"), str):
        read_seed = ("seed", seed["seed"])
    elif (
        isinstance(seed, dict)
        and seed.get("mode") == SEALED
        and isinstance(seed.get("commitment"), str)
    ):
        read_seed = ("commitment", seed["commitment"])
    elif seed is None:
        read_seed = None
    else:
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
    return {
        "entries": entries,
        "receipt_hash": hashed,
        "nonce": nonce,
        "nonce_shown": state["nonce_shown"],
        "seed": read_seed,
        "client_seed": client_seed,
        "game": None if game is None else (game["ruleset"], game.get("rules")),
        "pending": None if pending is None else (pending["index"], pending["answer"]),
        "supplied": supplied,
    }


def read_checkpoint(keys, document):
    """(carry-over, the log's ``continues_from``, problems) of a checkpoint document."""
    found, carry, signed = [], None, False
    if isinstance(document, dict) and set(document) == CHECKPOINT_MEMBERS:
        signed, _, problem = check_signature(keys, document)
        if signed is False:
            found.append(
                (
                    "checkpoint-altered",
                    f"the checkpoint's signature does not hold ({problem}): it was altered, "
                    "or this service did not make it",
                )
            )
        carry = carry_of(document.get("state"))
    if carry is None:
        found.append(("checkpoint-unknown", NOT_A_CHECKPOINT))
    continues = {
        "entries": carry["entries"] if carry else None,
        "receipt_hash": carry["receipt_hash"] if carry else None,
        "signature_valid": signed,
    }
    return carry, continues, found


def check(
    document,
    keys=None,
    revealed=None,
    accept_supplied=False,
    dice_only=False,
    carried=None,
):
    """The verdict, shaped like POST /v1/receipts/verify's answer (plus what was not checked).

    ``document`` is what the service takes: one response, a log, or the next part of one
    (``{"checkpoint": ..., "entries": [...]}``); ``carried`` continues from the carry-over
    of a part this verifier checked before (its verdict's ``_carry``)."""
    revealed = revealed or {}
    start, continues, opening = carried, None, []
    if carried is not None:
        continues = {
            "entries": carried["entries"],
            "receipt_hash": carried["receipt_hash"],
            "signature_valid": True,
        }
    if isinstance(document, dict) and set(document) == {"checkpoint", "entries"}:
        checkpoint, document = document["checkpoint"], document["entries"]
        if not isinstance(checkpoint, dict) or not isinstance(document, list):
            document = None
        else:
            start, continues, opening = read_checkpoint(keys, checkpoint)
    if isinstance(document, dict) and start is None:
        documents, is_log = [document], False
    elif isinstance(document, dict):
        documents, is_log = [document], True
    elif isinstance(document, list) and document and all(isinstance(d, dict) for d in document):
        documents, is_log = document, True
    else:
        return _refused("validation", "(body)", "Must be an object or a list of objects.")
    limit = document_limit(documents)
    if limit is not None:
        return _refused("limit", "(body)", limit)
    offset = start["entries"] if start is not None else 0
    entries = [check_entry(offset + i, d, keys, revealed) for i, d in enumerate(documents)]
    log = check_log(entries, accept_supplied, start, opening) if is_log else None
    carry = log.pop("_carry") if log is not None else None
    if log is not None:
        log["continues_from"] = continues
    holds = all(e.signature_valid is not False and e.dice_valid is not False for e in entries)
    if log is not None:
        holds = (
            holds
            and all(log[name] for name in LOG_CHECKS)
            and (accept_supplied or not log["supplied_entries"])
            and not opening
        )
    waiting = sum(any(code == SEALED_NOT_YET for code, _ in e.found) for e in entries)
    verdict = verdict_of(holds, waiting, keys is not None, dice_only)
    return {
        "valid": verdict in (VALID, DICE_ONLY),
        "verdict": verdict,
        "not_yet_checkable": waiting,
        "entries": [e.as_dict() for e in entries],
        "log": log,
        "signatures_checked": keys is not None,
        "refused": None,
        "_entries": entries,
        "_carry": carry if verdict in (VALID, DICE_ONLY, UNSIGNED) else None,
    }


def _refused(code, field, message):
    return {
        "valid": False,
        "verdict": INVALID,
        "entries": [],
        "log": None,
        "signatures_checked": False,
        "not_yet_checkable": 0,
        "refused": {"code": code, "field": field, "message": message},
        "_entries": [],
        "_carry": None,
    }


# --- the command --------------------------------------------------------------------------


def revealed_seeds(documents):
    """Commitment -> server seed, from saved reveal answers, each checked against its hash
    (``FORGED`` for a reveal whose seed does not hash to its commitment)."""
    seeds, problems = {}, []
    for document in documents:
        if not isinstance(document, dict):
            problems.append(
                "a reveal file is not a JSON object (the saved answer of POST /v1/seeds/reveal): "
                f"{show(document)}"
            )
            continue
        seed, commitment = document.get("seed"), document.get("commitment")
        if not isinstance(seed, str) or not _utf8(seed):
            problems.append(f"a revealed seed is not text: {show(seed)}")
        elif hashlib.sha256(seed.encode("utf-8")).hexdigest() != commitment:
            problems.append(f"the revealed seed does not hash to its commitment {commitment}")
            if isinstance(commitment, str) and commitment not in seeds:
                seeds[commitment] = FORGED
        else:
            seeds[commitment] = seed
    return seeds, problems


def read_file(path):
    with open(path, encoding="utf-8") as handle:
        return read_json(handle.read())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="verify_dice.py", description=__doc__.strip().splitlines()[0]
    )
    parser.add_argument("log", help="a saved response, or a game log (a JSON list of them)")
    parser.add_argument("revealed", nargs="*", help="saved answers of POST /v1/seeds/reveal")
    parser.add_argument("--jwks", help="the service's saved /.well-known/jwks.json")
    parser.add_argument("--accept-supplied", action="store_true", help="accept table dice")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.add_argument(
        "--checkpoint",
        help="a checkpoint the service gave (the `checkpoint` of its verify answer, or the "
        "answer whole): the log is the part of the game after it",
    )
    parser.add_argument(
        "--part",
        action="append",
        default=[],
        metavar="FILE",
        help="the next part of the game (a log), checked as continuing from the one before; "
        "give it once a part, in order",
    )
    parser.add_argument(
        "--dice-only",
        action="store_true",
        help="check the dice and the log without the signatures (no --jwks): exit 0 when "
        "they hold, though nothing shows the answers are the service's",
    )
    args = parser.parse_args(argv[1:])

    keys, notes = None, []
    try:
        if args.jwks and Ed25519PublicKey is not None:
            keys = load_keys(read_file(args.jwks))
        reveals = [read_file(path) for path in args.revealed]
        document = read_file(args.log)
        checkpoint = read_file(args.checkpoint) if args.checkpoint else None
        parts = [read_file(path) for path in args.part]
    except Duplicate as error:
        field, message = error.args
        verdict = _refused("duplicate-member", field, message)
        reveal_problems = []
    except (OSError, ValueError, RecursionError, KeyError, TypeError, AttributeError) as error:
        print(f"cannot read a file: {error}", file=sys.stderr)
        return 2
    else:
        revealed, reveal_problems = revealed_seeds(reveals)
        notes.extend(reveal_problems)
        if isinstance(checkpoint, dict) and set(checkpoint) != CHECKPOINT_MEMBERS:
            checkpoint = checkpoint.get("checkpoint", checkpoint)  # a verify answer, whole
        if checkpoint is not None:
            document = {"checkpoint": checkpoint, "entries": document}
        verdict = check(document, keys, revealed, args.accept_supplied, args.dice_only)
        for number, part in enumerate(parts, 2):
            if verdict["_carry"] is None:
                notes.append(
                    f"part {number - 1} does not hold: the parts after it were not checked"
                )
                break
            if not args.json:
                report(verdict, notes)
                notes = []
                print(f"part {number} ({args.part[number - 2]}):")
            verdict = check(
                part, keys, revealed, args.accept_supplied, args.dice_only, verdict["_carry"]
            )
    verdict["signatures_checked"] = keys is not None
    if reveal_problems:
        verdict["valid"], verdict["verdict"] = False, INVALID
    if keys is None:
        notes.append(
            "signatures NOT checked: "
            + (
                "the `cryptography` package is not installed (pip install cryptography)"
                if args.jwks
                else "pass the service's saved /.well-known/jwks.json with --jwks"
            )
            + (
                ": nothing shows these answers are the service's; the dice alone were checked"
                if args.dice_only
                else " (or --dice-only to check the dice alone)"
            )
        )
    if args.json:
        for note in notes:  # stdout holds the verdict alone
            print(note, file=sys.stderr)
        print(json.dumps({k: v for k, v in verdict.items() if k[0] != "_"}, indent=2))
    else:
        report(verdict, notes)
    return EXIT[verdict["verdict"]]


def _text(value) -> str:
    """A value of the document as the referee's page writes it (explain.js ``text``)."""
    if isinstance(value, str):
        return value
    return "none" if value is None else show(value)


def step_name(document) -> str:
    """What an entry is, in the referee's page's words (explain.js ``stepName``): the
    answer that sealed a seed has no ruleset or step, a plain roll has no ruleset."""
    if isinstance(_get(document, "commitment"), str) and _get(document, "rolls") is None:
        return "sealed seed"
    ruleset, step = _get(document, "ruleset"), _get(document, "step")
    return f"{'dice' if ruleset is None else _text(ruleset)}/{'?' if step is None else _text(step)}"


def report(verdict, notes) -> None:
    for note in notes:
        print(note)
    refused = verdict["refused"]
    if refused is not None:
        print(f"[{refused['code']}] {refused['field']}: {refused['message']}")
        print("verdict: INVALID")
        return
    for entry in verdict["_entries"]:
        label = step_name(entry.document)
        codes = [code for code, _ in entry.found]
        if entry.signature_valid is False or entry.dice_valid is False:
            state = "MISMATCH"
        elif label == "sealed seed":
            state = f"commitment {entry.document['commitment']}, reveal after " + _text(
                entry.document.get("reveal_after")
            )
        elif SEALED_NOT_YET in codes:
            state = "not yet checkable"
        elif "supplied-dice" in codes:
            state = "supplied dice, signed as supplied"
        else:
            state = f"ok, {entry.rolls_matched} rolls match"
        print(f"{entry.name} {label}: {state}")
        for code, message in capped(entry.found, MAX_ENTRY_PROBLEMS):
            print(f"  [{code}] {message}")
    log = verdict["log"]
    if log is not None:
        for code, message in zip(log["codes"], log["problems"], strict=False):
            print(f"log: [{code}] {message}")
        start = log.get("continues_from")
        if start is not None and start["entries"] is not None:
            print(
                f"the log continues from a checkpoint after {entry_name(start['entries'] - 1)}, "
                f"receipt hash {start['receipt_hash']}"
            )
        end = log["ends_with"]
        print(
            f"the log ends with {entry_name(end['index'])}, receipt hash {end['receipt_hash']}, "
            f"nonce {end['nonce']}: compare with the last receipt the players hold"
        )
    print("verdict: " + HEADLINES[verdict["verdict"]].format(**verdict))


HEADLINES = {
    VALID: "VALID",
    INVALID: "INVALID",
    NOT_YET: "NOT YET CHECKABLE: nothing wrong so far, but {not_yet_checkable} sealed rolls "
    "wait for the reveal (pass the reveal answer after it)",
    UNSIGNED: "NOT CHECKED: the dice hold, but no signature was checked (--jwks jwks.json)",
    DICE_ONLY: "DICE VALID (signatures not checked, as asked)",
}


if __name__ == "__main__":
    sys.exit(main(sys.argv))
