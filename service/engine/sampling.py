"""Seeded games drawn from exact odds: the one sampler of every advisor and every turn's odds.

Where the outcomes of a whole game or turn are too many to enumerate, the service plays
seeded games instead, each random part drawn from the exact odds of the step that resolves
it, and answers with counts, shares and a 95% Wilson interval (``share``).

Reproducible: sample ``i`` of an algorithm named ``A`` reads its own byte stream,
``HMAC-SHA256(key=UTF-8(seed), msg=ASCII("A:<nonce>:<i>:<block>"))`` for block = 0, 1, ...
A draw from chances with common denominator ``D`` reads the fewest bytes ``k`` with
``256^k >= D`` as a big-endian number ``x``, discards it if ``x >= 256^k - 256^k mod D`` and
otherwise takes ``x mod D`` into the cumulative weights. ``enumerate_picks`` walks every
branch of the same picks instead of sampling them (for tests against brute force).
"""

from __future__ import annotations

import hmac
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm, sqrt
from typing import Generic, TypedDict, TypeVar

Z95 = 1.959963984540054


class Share(TypedDict):
    """How often something came up in the sampled games, with its 95% interval."""

    count: int
    probability: str
    p: float
    interval: list[float]


T = TypeVar("T")


@dataclass(frozen=True)
class Choices(Generic[T]):
    """A random part of a turn: outcomes with integer weights over one denominator."""

    outcomes: tuple[T, ...]
    cumulative: tuple[int, ...]  # running sums of the weights; the last is the denominator
    width: int  # bytes a draw reads
    limit: int  # a draw at or past it is discarded (no modulo bias)

    @property
    def denominator(self) -> int:
        return self.cumulative[-1]

    def chance(self, index: int) -> Fraction:
        low = self.cumulative[index - 1] if index else 0
        return Fraction(self.cumulative[index] - low, self.denominator)


def choices(pairs: Sequence[tuple[T, Fraction]]) -> Choices[T]:
    denominator = lcm(*(p.denominator for _, p in pairs))
    return weighted([(o, p.numerator * (denominator // p.denominator)) for o, p in pairs])


def weighted(pairs: Sequence[tuple[T, int]], denominator: int | None = None) -> Choices[T]:
    """Outcomes with integer weights, in order (the weights add up to the denominator)."""
    running, cumulative = 0, []
    for _, w in pairs:
        running += w
        cumulative.append(running)
    if denominator is not None and running != denominator:
        raise ValueError(f"weights add up to {running}, not {denominator}")
    width = max(1, ((running - 1).bit_length() + 7) // 8)
    bound = 256**width
    return Choices(tuple(o for o, _ in pairs), tuple(cumulative), width, bound - bound % running)


class Picker:
    """Where the advisor's game takes each random outcome from."""

    def pick(self, options: Choices[T]) -> T:
        raise NotImplementedError


class StreamPicker(Picker):
    """Seeded draws: sample ``i`` of ``algorithm`` reads its own byte stream (the module's
    docstring)."""

    def __init__(self, seed: str, nonce: int, sample: int, algorithm: str) -> None:
        self._key = seed.encode("utf-8")
        self._prefix = f"{algorithm}:{nonce}:{sample}:"
        self._block = 0
        self._buffer = b""
        self._at = 0

    def pick(self, options: Choices[T]) -> T:
        outcomes = options.outcomes
        if len(outcomes) == 1:
            return outcomes[0]
        width, limit, cumulative = options.width, options.limit, options.cumulative
        buffer, at = self._buffer, self._at
        while True:
            end = at + width
            if end > len(buffer):
                msg = f"{self._prefix}{self._block}".encode("ascii")
                buffer = buffer[at:] + hmac.digest(self._key, msg, "sha256")
                self._block += 1
                at, end = 0, width
            number = buffer[at] if width == 1 else int.from_bytes(buffer[at:end], "big")
            at = end
            if number < limit:
                self._buffer, self._at = buffer, at
                return outcomes[bisect_right(cumulative, number % cumulative[-1])]


class _PathPicker(Picker):
    """Plays one branch of every pick: a fixed prefix of choices, then the first option."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.sizes: list[int] = []
        self.chance = Fraction(1)

    def pick(self, options: Choices[T]) -> T:
        position = len(self.sizes)
        index = self.prefix[position] if position < len(self.prefix) else 0
        self.sizes.append(len(options.outcomes))
        self.chance *= options.chance(index)
        return options.outcomes[index]


def enumerate_picks(play: Callable[[Picker], T], limit: int = 10**6) -> dict[T, Fraction]:
    """The exact distribution of ``play``'s outcome over every branch of its picks (for
    tests against brute force: the same game, every outcome instead of a sample)."""
    out: dict[T, Fraction] = {}
    prefix: list[int] = []
    for _ in range(limit):
        picker = _PathPicker(prefix)
        key = play(picker)
        out[key] = out.get(key, Fraction(0)) + picker.chance
        choices_ = prefix + [0] * (len(picker.sizes) - len(prefix))
        while choices_ and choices_[-1] == picker.sizes[len(choices_) - 1] - 1:
            choices_.pop()
        if not choices_:
            return out
        choices_[-1] += 1
        prefix = choices_
    raise RuntimeError("more branches than the limit")


def share(count: int, samples: int) -> Share:
    """An observed fraction, exactly as counted, with its 95% Wilson interval."""
    p = count / samples
    spread = Z95 * sqrt(p * (1 - p) / samples + Z95**2 / (4 * samples**2))
    centre = p + Z95**2 / (2 * samples)
    scale = 1 + Z95**2 / samples
    return {
        "count": count,
        "probability": f"{count}/{samples}",
        "p": p,
        # None seen is a low end of 0 exactly, all seen a high end of 1 (no float dust).
        "interval": [
            0.0 if count == 0 else max(0.0, (centre - spread) / scale),
            1.0 if count == samples else min(1.0, (centre + spread) / scale),
        ],
    }
