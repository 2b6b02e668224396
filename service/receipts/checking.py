"""Check saved responses: each entry's signature and dice, and a game log as a whole.

A log is the list of a game's responses in the order they were made. It holds when every
entry is signed by this service and its dice re-derive, each entry's ``prev`` is the hash
of the receipt before it (nothing removed, inserted, reordered or replayed), the nonces
count up by one, and every roll comes from the same seed or sealed seed (so a roll that was
made and then thrown away shows as a gap, a repeat or another seed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..engine.dice import byte_stream, commitment, die_from_stream, sealed_seed
from ..engine.errors import RuleError
from .keys import SealKeys, SigningKeys
from .sealing import open_token
from .signing import check_signature, receipt_hash, rfc3339

NOTATION = re.compile(r"^([1-9]\d{0,3})d([1-9]\d{0,3})$")
MAX_SIDES = 65536


@dataclass
class Entry:
    index: int
    document: Any
    signature_valid: bool = False
    dice_valid: bool | None = None
    receipt_hash: str | None = None
    problems: list[str] = field(default_factory=list)

    def get(self, *path: str) -> Any:
        value = self.document
        for name in path:
            value = value.get(name) if isinstance(value, dict) else None
        return value

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "ruleset": _text(self.get("ruleset")),
            "step": _text(self.get("step")),
            "signature_valid": self.signature_valid,
            "dice_valid": self.dice_valid,
            "receipt_hash": self.receipt_hash,
            "problems": self.problems,
        }


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _count(value: Any) -> int | None:
    return value if type(value) is int else None


def _rederive(stream: Iterator[int], rolls: Any) -> list[str]:
    if not isinstance(rolls, list):
        return ["`rolls` is missing"]
    problems: list[str] = []
    for index, roll in enumerate(rolls):
        notation = roll.get("notation") if isinstance(roll, dict) else None
        match = NOTATION.match(notation) if isinstance(notation, str) else None
        if match is None or not 2 <= int(match.group(2)) <= MAX_SIDES:
            return [*problems, f"rolls[{index}]: cannot read the notation {notation!r}"]
        count, sides = int(match.group(1)), int(match.group(2))
        expected = [die_from_stream(stream, sides) for _ in range(count)]
        if roll.get("values") != expected:
            problems.append(
                f"rolls[{index}] ({roll.get('label')}): the response says {roll.get('values')}, "
                f"the seed and nonce give {expected}"
            )
    return problems


def _check_dice(entry: Entry, seals: SealKeys, now: int) -> None:
    dice = entry.get("dice")
    if dice is None and entry.get("rolls") is None:
        return  # a document without dice, e.g. the answer that sealed a seed
    mode = dice.get("mode") if isinstance(dice, dict) else None
    nonce = _count(dice.get("nonce")) if isinstance(dice, dict) else None
    if mode == "supplied":
        entry.problems.append("the player supplied these dice: they cannot be re-derived")
        return
    if mode == "seeded" and isinstance(dice.get("seed"), str) and nonce is not None:
        stream = byte_stream(dice["seed"], nonce)
    elif mode == "sealed" and isinstance(dice.get("client_seed"), str) and nonce is not None:
        token = entry.get("provenance", "request", "body", "dice", "sealed")
        if not isinstance(token, str):
            entry.dice_valid = False
            entry.problems.append("a sealed roll whose request does not carry its token")
            return
        try:
            sealed = open_token(seals, token)
        except RuleError as error:
            entry.dice_valid = False
            entry.problems.append(error.detail)
            return
        if now < sealed.reveal_after:
            entry.problems.append(
                f"sealed until {rfc3339(sealed.reveal_after)}: the dice can be re-derived then"
            )
            return
        if commitment(sealed.seed) != dice.get("commitment"):
            entry.dice_valid = False
            entry.problems.append("the sealed seed does not match the commitment")
            return
        stream = byte_stream(sealed_seed(sealed.seed, dice["client_seed"]), nonce)
    else:
        entry.dice_valid = False
        entry.problems.append("`dice` names no seeded, sealed or supplied dice")
        return
    problems = _rederive(stream, entry.get("rolls"))
    entry.dice_valid = not problems
    entry.problems.extend(problems)


def check_entry(index: int, document: Any, keys: SigningKeys, seals: SealKeys, now: int) -> Entry:
    entry = Entry(index, document)
    if not isinstance(document, dict):
        entry.problems.append("not a response document (a JSON object)")
        return entry
    if isinstance(document.get("receipt"), str):
        entry.receipt_hash = receipt_hash(document["receipt"])
    checked = check_signature(keys, document)
    entry.signature_valid = checked.valid
    if checked.problem:
        entry.problems.append(checked.problem)
    _check_dice(entry, seals, now)
    return entry


def _seed_of(entry: Entry) -> tuple[str, ...] | None:
    mode = entry.get("dice", "mode")
    if mode == "seeded":
        return ("seed", str(entry.get("dice", "seed")))
    if mode == "sealed":
        return ("commitment", str(entry.get("dice", "commitment")))
    if isinstance(entry.get("commitment"), str):  # the answer that sealed the seed
        return ("commitment", entry.get("commitment"))
    return None


def check_log(entries: list[Entry]) -> dict[str, Any]:
    problems: list[str] = []
    chain = nonces = one_seed = True
    for before, entry in zip(entries, entries[1:], strict=False):
        prev = entry.get("provenance", "request", "body", "prev")
        if prev is None:
            chain = False
            problems.append(f"entry {entry.index} carries no prev: the chain starts again")
        elif prev != before.receipt_hash:
            chain = False
            problems.append(
                f"entry {entry.index}'s prev is not the hash of entry {before.index}'s receipt: "
                "an entry was removed, inserted, reordered or replayed"
            )
    first_seed: tuple[str, ...] | None = None
    client_seed: Any = None
    last: Entry | None = None
    for entry in entries:
        seed = _seed_of(entry)
        if seed is None:
            continue
        if first_seed is None:
            first_seed = seed
        elif seed != first_seed:
            one_seed = False
            problems.append(
                f"entry {entry.index} rolls from another {seed[0]} than the game's first: "
                "a roll from another seed stands in for one of the game's"
            )
        if entry.get("dice", "mode") == "sealed":
            if client_seed is None:
                client_seed = entry.get("dice", "client_seed")
            elif entry.get("dice", "client_seed") != client_seed:
                one_seed = False
                problems.append(f"entry {entry.index} changes the client seed")
        nonce = _count(entry.get("dice", "nonce"))
        if nonce is None:
            continue
        if last is not None:
            before_nonce = _count(last.get("dice", "nonce"))
            assert before_nonce is not None
            if nonce == before_nonce:
                nonces = False
                problems.append(f"entry {entry.index} repeats nonce {nonce}")
            elif nonce < before_nonce:
                nonces = False
                problems.append(
                    f"entry {entry.index} goes back from nonce {before_nonce} to {nonce}"
                )
            elif nonce > before_nonce + 1:
                nonces = False
                missing = (
                    f"nonce {before_nonce + 1} is"
                    if nonce == before_nonce + 2
                    else f"nonces {before_nonce + 1} to {nonce - 1} are"
                )
                problems.append(f"entry {entry.index}: {missing} missing before it")
        last = entry
    return {
        "entries": len(entries),
        "chain_unbroken": chain,
        "nonces_consecutive": nonces,
        "one_seed": one_seed,
        "problems": problems,
    }


def check(
    documents: list[Any], keys: SigningKeys, seals: SealKeys, now: int, *, log: bool
) -> dict[str, Any]:
    entries = [check_entry(i, doc, keys, seals, now) for i, doc in enumerate(documents)]
    report = check_log(entries) if log else None
    valid = all(e.signature_valid and e.dice_valid is not False for e in entries)
    if report is not None:
        valid = valid and all(
            report[name] for name in ("chain_unbroken", "nonces_consecutive", "one_seed")
        )
    return {"valid": valid, "entries": [e.as_dict() for e in entries], "log": report}
