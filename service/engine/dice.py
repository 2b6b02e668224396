"""The one dice source behind every roll: seeded, supplied, or enumerated for odds.

Algorithm ``fc-dice-v1`` (documented in docs/dice.md, checked by tools/verify_dice.py):

* the byte stream for a (seed, nonce) pair is the concatenation of the blocks
  ``HMAC-SHA256(key=UTF-8(seed), msg=ASCII("fc-dice-v1:<nonce>:<block>"))`` for
  block = 0, 1, 2, ...;
* a die of S sides (2 <= S <= 256) reads one byte b; with limit = 256 - 256 mod S,
  a byte b >= limit is discarded and the next one read; otherwise the die shows
  b mod S + 1 (rejection sampling: every face equally likely, no modulo bias);
* a die of 257 to 65536 sides reads two bytes as a big-endian number, limit 65536;
* dice are read in the order the step rolls them, which is the order of ``rolls``.

Algorithm ``fc-dice-sealed-v1`` (commit, then reveal; documented in docs/verifiable-rolls.md):

* the service picks a secret server seed (43 base64url characters, never a ``:``) and
  publishes its commitment ``hex(SHA-256(UTF-8(server_seed)))`` before any roll;
* a roll names a client seed and a nonce; its dice are exactly the fc-dice-v1 dice of the
  seed ``<server_seed>:<client_seed>`` and that nonce;
* once the server seed is revealed, anyone checks it against the commitment and re-derives
  every die with fc-dice-v1.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain
from typing import Any

from . import budget as work
from . import shape
from .dice_modes import SEALED, SEEDED, SUPPLIED
from .dice_requests import MAX_DICE_PER_REQUEST as MAX_DICE_PER_REQUEST
from .dice_requests import MAX_NONCE as MAX_NONCE
from .dice_requests import MAX_SIDES as MAX_SIDES
from .dice_requests import Again
from .dice_requests import SeededDice as SeededRequest
from .envelope import DiceUsed
from .envelope import Roll as RollAnswer
from .errors import DiceError, LimitError

ALGORITHM = "fc-dice-v1"
SEALED_ALGORITHM = "fc-dice-sealed-v1"
# The walk of every face (and the walk of each roll's classes) runs the step once per
# branch: 1,000 branches of the costliest step that walks (a Salvo! straddle, about 30 us
# each with the walk) stay near 30 ms of CPU, under the 50 ms budget. The odds of the big
# trees (dreadnought fire and torpedo, fleet-action pools) are worked out from
# distributions and walk no branch (docs/performance.md).
MAX_ODDS_BRANCHES = 1_000
# What a branch of a walk costs the request's budget: one resolution of a step, about 31 us
# for a Salvo! straddle at the cap (bench/worst_case.py --cap), so the cap's walk fits.
BRANCH_UNITS = 310
WALK = "walking every outcome of these dice"
FEWER = "ask for fewer dice or rolls"


@dataclass(frozen=True)
class Roll:
    """Dice rolled together for one purpose, as the response lists them."""

    label: str
    sides: int
    values: tuple[int, ...]

    @property
    def notation(self) -> str:
        return f"{len(self.values)}d{self.sides}"

    @property
    def total(self) -> int:
        return sum(self.values)

    def as_dict(self) -> RollAnswer:
        values = self.values  # ``notation`` and ``total`` written out: every answer lists rolls
        return {
            "label": self.label,
            "notation": f"{len(values)}d{self.sides}",
            "values": list(values),
            "total": sum(values),
        }


class DiceSource:
    """Where dice come from. Subclasses produce one die at a time."""

    used = 0

    def die(self, sides: int, label: str, count: int, index: int) -> int:
        raise NotImplementedError

    def admit(self, label: str, count: int, sides: int) -> None:
        """Refuse a roll past the dice limits, whatever the source."""
        if not 2 <= sides <= MAX_SIDES:
            raise LimitError(f"{label}: a die has 2 to {MAX_SIDES} sides, not {sides}")
        if self.used + count > MAX_DICE_PER_REQUEST:
            raise LimitError(f"{label}: a request may roll at most {MAX_DICE_PER_REQUEST} dice")

    def draw(self, label: str, count: int, sides: int) -> Roll:
        self.admit(label, count, sides)
        values = tuple([self.die(sides, label, count, i) for i in range(count)])
        self.used += count
        return Roll(label, sides, values)

    def finish(self) -> None:
        """Called once the step is resolved; supplied dice check that all were used."""

    def describe(self) -> Mapping[str, Any]:
        """The answer's ``dice``: a ``DiceUsed`` for the dice a request rolls."""
        raise NotImplementedError

    def again(self) -> Again:
        """The request's ``dice`` member that rolls these very dice again (a pending turn's
        finishing call sends it), or None where a request cannot say it in full."""
        return None


def _blocks(seed: str, nonce: int) -> Iterator[bytes]:
    key = seed.encode("utf-8")
    block = 0
    while True:
        msg = f"{ALGORITHM}:{nonce}:{block}".encode("ascii")
        yield hmac.digest(key, msg, "sha256")  # HMAC-SHA256 in one call, no HMAC object
        block += 1


def byte_stream(seed: str, nonce: int) -> Iterator[int]:
    """The fc-dice-v1 byte stream for one seed and nonce: its blocks, byte by byte (read
    without a call into Python per byte)."""
    return chain.from_iterable(_blocks(seed, nonce))


def die_from_stream(stream: Iterator[int], sides: int) -> int:
    """One die of ``sides`` faces from the stream, by rejection sampling."""
    if sides <= 256:  # one byte a try
        limit = 256 - 256 % sides
        for number in stream:
            if number < limit:
                return number % sides + 1
        raise StopIteration  # the stream ran out (the service's never does)
    limit = 65536 - 65536 % sides
    while True:  # two bytes a try, big-endian
        number = next(stream) * 256
        number += next(stream)
        if number < limit:
            return number % sides + 1


def dice_from_stream(stream: Iterator[int], count: int, sides: int) -> tuple[int, ...]:
    """``count`` dice of ``sides`` faces from the stream: the very dice ``die_from_stream``
    reads one at a time, read in one loop where a die takes a byte a try."""
    if sides > 256 or count < 1:
        return tuple([die_from_stream(stream, sides) for _ in range(count)])
    limit = 256 - 256 % sides
    values = []
    for number in stream:
        if number < limit:
            values.append(number % sides + 1)
            if len(values) == count:
                return tuple(values)
    raise StopIteration  # the stream ran out (the service's never does)


class _StreamDice(DiceSource):
    """Dice read from an fc-dice-v1 byte stream (seeded and sealed dice)."""

    _stream: Iterator[int]

    def die(self, sides: int, label: str, count: int, index: int) -> int:
        return die_from_stream(self._stream, sides)

    def draw(self, label: str, count: int, sides: int) -> Roll:
        self.admit(label, count, sides)
        values = dice_from_stream(self._stream, count, sides)
        self.used += count
        return Roll(label, sides, values)


class SeededDice(_StreamDice):
    """Deterministic dice from a seed and a nonce (``fc-dice-v1``)."""

    def __init__(self, seed: str, nonce: int = 0, *, generated: bool = False) -> None:
        self.seed = seed
        self.nonce = nonce
        self.generated = generated
        self._stream = byte_stream(seed, nonce)

    @classmethod
    def fresh(cls) -> SeededDice:
        """A seed from the operating system's randomness, returned so it can be replayed."""
        return cls(secrets.token_urlsafe(16), 0, generated=True)

    def describe(self) -> DiceUsed:
        return {
            "mode": SEEDED,
            "algorithm": ALGORITHM,
            "seed": self.seed,
            "nonce": self.nonce,
            "seed_source": "server" if self.generated else "client",
        }

    def again(self) -> Again:
        return shape.to_json(SeededRequest(self.seed, self.nonce))  # fresh: the seed chosen


def commitment(server_seed: str) -> str:
    """The published commitment to a sealed server seed: hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(server_seed.encode("utf-8")).hexdigest()


def sealed_seed(server_seed: str, client_seed: str) -> str:
    """The fc-dice-v1 seed a sealed roll uses: both seeds, joined by a colon."""
    return f"{server_seed}:{client_seed}"


class SealedDice(_StreamDice):
    """Dice from a committed, still secret server seed and a client seed (``fc-dice-sealed-v1``).

    The response names the commitment, never the server seed: the player learns the seed
    only when it is revealed, and can then re-derive every die with fc-dice-v1.
    """

    def __init__(
        self, server_seed: str, client_seed: str, nonce: int = 0, *, reveal_after: str = ""
    ) -> None:
        self.commitment = commitment(server_seed)
        self.client_seed = client_seed
        self.nonce = nonce
        self.reveal_after = reveal_after
        self._stream = byte_stream(sealed_seed(server_seed, client_seed), nonce)

    def describe(self) -> DiceUsed:
        described: DiceUsed = {
            "mode": SEALED,
            "algorithm": SEALED_ALGORITHM,
            "commitment": self.commitment,
            "client_seed": self.client_seed,
            "nonce": self.nonce,
        }
        if self.reveal_after:
            described["reveal_after"] = self.reveal_after
        return described


class SuppliedDice(DiceSource):
    """Dice the player rolled at the table, taken in the order the step consumes them."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.position = 0

    def die(self, sides: int, label: str, count: int, index: int) -> int:
        wanted = f"{count}d{sides} for {label}"
        if self.position >= len(self.values):
            raise DiceError(
                f"{len(self.values)} dice supplied, but the step wants another: "
                f"die {index + 1} of {wanted}"
            )
        value = self.values[self.position]
        if not 1 <= value <= sides:
            raise DiceError(
                f"value {value} (dice.values[{self.position}]) is not a face of a d{sides}: "
                f"it was taken as die {index + 1} of {wanted}"
            )
        self.position += 1
        return value

    def finish(self) -> None:
        if self.position < len(self.values):
            raise DiceError(
                f"{len(self.values)} dice supplied, but the step used only {self.position}; "
                f"unused from dice.values[{self.position}]"
            )

    def describe(self) -> DiceUsed:
        return {"mode": SUPPLIED, "values": list(self.values)}


class _EnumeratingDice(DiceSource):
    """Plays one branch of the tree of all outcomes: a fixed prefix, then ones."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.sides: list[int] = []

    def die(self, sides: int, label: str, count: int, index: int) -> int:
        position = len(self.sides)
        self.sides.append(sides)
        return self.prefix[position] if position < len(self.prefix) else 1

    def describe(self) -> dict[str, Any]:
        return {"mode": "enumerated"}  # an odds walk's: never answered


def enumerate_outcomes(
    play: Callable[[DiceSource], Hashable],
) -> dict[Hashable, Fraction]:
    """Exact distribution of ``play``'s outcome over every possible die.

    ``play`` resolves the step with the dice it is given and returns a hashable key
    for the outcome. Every branch of the dice tree is visited once (depth first, like
    an odometer), so the odds come from the very code that resolves a roll.
    """
    # branches counted per (outcome, number of throws of the branch's dice): exact
    # integers while walking, one fraction per pair at the end
    counts: dict[tuple[Hashable, int], int] = {}
    prefix: list[int] = []
    branches = 0
    budget = work.current()
    while True:
        branches += 1
        budget.charge(BRANCH_UNITS, WALK, FEWER)
        if branches > MAX_ODDS_BRANCHES:
            raise LimitError(
                f"these inputs have more than {MAX_ODDS_BRANCHES} dice outcomes to enumerate"
            )
        dice = _EnumeratingDice(prefix)
        key = play(dice)
        throws = 1
        for sides in dice.sides:
            throws *= sides
        counts[key, throws] = counts.get((key, throws), 0) + 1
        faces = prefix + [1] * (len(dice.sides) - len(prefix))
        while faces and faces[-1] == dice.sides[len(faces) - 1]:
            faces.pop()
        if not faces:
            break
        faces[-1] += 1
        prefix = faces
    distribution: dict[Hashable, Fraction] = {}
    for (key, throws), n in counts.items():
        distribution[key] = distribution.get(key, Fraction(0)) + Fraction(n, throws)
    return distribution
