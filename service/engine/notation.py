"""Dice notation: read it, roll it from the one dice source, and work out its exact odds.

The dialect is the one tabletop rollers share (docs/dice.md gives the grammar): terms of
``NdS`` (``d%`` is a d100, ``dF`` a Fate die of -1, 0, +1) and constants, joined by ``+``
and ``-``; a term may carry, each at most once and in any order, a reroll (``r``, ``ro``),
``min``/``max``, an explosion (``!``, compounding ``!!``), a keep or drop (``kh``, ``kl``,
``k``, ``dh``, ``dl``) and success counting (``>=N`` ... with failures ``f<N``).

Whatever order they are written in, a term's modifiers apply in one order, and its dice are
drawn in one order (the ``fc-dice-v1`` stream's, and supplied values'):

1. the term's N dice, in order (one roll of ``rolls``);
2. then die by die: while its face meets the reroll (at most ``MAX_REROLLS`` times; ``ro``
   once), a new die replaces it; its face then counts as at least ``min`` and at most
   ``max``; if that value meets the explosion (``MAX_EXPLOSIONS`` times at most in a
   chain), one more die is drawn, which goes through the same reroll, min and max and
   explosion before the next of the N dice (each a one-die roll of ``rolls``);
3. keep or drop picks from the pool (every die that was not rerolled away; a compounding
   die and its explosions are one die of their summed value), the earlier die first
   among equal values;
4. the term adds its kept dice's values, or counts its kept dice: +1 for a success, -1
   for a failure (a die that meets both is a success).

A Fate die is drawn as a d3 (1, 2, 3 show -1, 0, +1), and is supplied that way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from . import dice
from .dice_results import DieCause, DieFate, DieSuccess, RolledDie, RolledTerm, RollResult
from .errors import LimitError, NotationError

MAX_NOTATION_LENGTH = 200
MAX_NOTATION_DICE = 100
MAX_NOTATION_CONSTANT = 10_000
# A die is rerolled at most this many times (``r``) and explodes at most this many times in
# a chain (``!``, ``!!``): a d6 meets either cap once in 7,776 times. With the caps every
# roll is bounded, and its odds exact.
MAX_REROLLS = 5
MAX_EXPLOSIONS = 5
# Every die a notation could draw with every reroll and explosion it allows: the dice limit
# of a request, checked before any die is drawn (so no roll is refused half way by luck).
MAX_NOTATION_DRAWS = dice.MAX_DICE_PER_REQUEST
EXAMPLES = "3d6, 4d6kh3, 2d20kl1, 3d6!, 10d6>=5, 4dF or 1d20+5"

Operator = Literal[">=", "<=", ">", "<", "="]
_OPERATORS: tuple[Operator, ...] = (">=", "<=", ">", "<", "=")
Keep = Literal["kh", "kl", "dh", "dl"]
# as written (``k`` alone is ``kh``), the two-letter words first
_KEEPS: dict[str, Keep] = {"kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "k": "kh"}


@dataclass(frozen=True)
class Compare:
    """A compare point: a die's face or value ``operator`` ``number``."""

    operator: Operator
    number: int

    def __call__(self, value: int) -> bool:
        match self.operator:
            case ">=":
                return value >= self.number
            case "<=":
                return value <= self.number
            case ">":
                return value > self.number
            case "<":
                return value < self.number
        return value == self.number

    @property
    def bounds(self) -> tuple[int, int]:
        """The values that meet it, as one interval (open ends past any die's face)."""
        n, far = self.number, 1 << 30
        match self.operator:
            case ">=":
                return n, far
            case "<=":
                return -far, n
            case ">":
                return n + 1, far
            case "<":
                return -far, n - 1
        return n, n

    def __str__(self) -> str:
        return f"{self.operator}{self.number}"

    def written(self) -> str:
        """As a modifier writes it: ``=N`` as the number alone (``r1``, ``!5``, ``f1``)."""
        return str(self.number) if self.operator == "=" and self.number >= 0 else str(self)


@dataclass(frozen=True, kw_only=True)
class Term:
    """One ``NdS`` term and its modifiers."""

    sign: int = 1
    count: int
    sides: int  # a Fate die: 3
    fudge: bool = False
    percent: bool = False
    reroll: Compare | None = None
    reroll_once: bool = False
    minimum: int | None = None
    maximum: int | None = None
    explode: Compare | None = None
    compound: bool = False
    keep: Keep | None = None
    keep_count: int = 0
    success: Compare | None = None
    failure: Compare | None = None

    @property
    def modified(self) -> bool:
        """Whether the term has a modifier (a plain NdS has none)."""
        return str(self) != f"{self.count}d{self.sides}"

    @property
    def faces(self) -> range:
        return range(-1, 2) if self.fudge else range(1, self.sides + 1)

    def face(self, drawn: int) -> int:
        """The face of a die drawn from the source (a Fate die is drawn as a d3)."""
        return drawn - 2 if self.fudge else drawn

    def value(self, face: int) -> int:
        """What a face counts after min and max."""
        if self.minimum is not None and face < self.minimum:
            face = self.minimum
        if self.maximum is not None and face > self.maximum:
            face = self.maximum
        return face

    @property
    def value_span(self) -> tuple[int, int]:
        """The least and most a die of the term counts after min and max: every value in
        between is some face's (min and max only pull faces together)."""
        return self.value(self.faces[0]), self.value(self.faces[-1])

    def rerolls(self) -> int:
        if self.reroll is None:
            return 0
        return 1 if self.reroll_once else MAX_REROLLS

    def explodes(self) -> int:
        return 0 if self.explode is None else MAX_EXPLOSIONS

    def worst_draws(self) -> int:
        """The most dice the term can draw."""
        return self.count * (1 + self.rerolls()) * (1 + self.explodes())

    def score(self, value: int) -> int:
        """What a kept die of this value adds to the term."""
        if self.success is None:
            return value
        if self.success(value):
            return 1
        return -1 if self.failure is not None and self.failure(value) else 0

    def __str__(self) -> str:
        sides = "F" if self.fudge else "%" if self.percent else str(self.sides)
        text = f"{self.count}d{sides}"
        if self.reroll is not None:
            text += ("ro" if self.reroll_once else "r") + self.reroll.written()
        if self.minimum is not None:
            text += f"min{self.minimum}"
        if self.maximum is not None:
            text += f"max{self.maximum}"
        if self.explode is not None:
            point = self.explode
            text += ("!!" if self.compound else "!") + (
                "" if point == Compare("=", self.faces[-1]) else point.written()
            )
        if self.keep is not None:
            text += f"{self.keep}{self.keep_count}"
        if self.success is not None:
            text += str(self.success)
        if self.failure is not None:
            text += "f" + self.failure.written()
        return text


@dataclass(frozen=True)
class Notation:
    """Terms with their signs and a constant, e.g. ``4d6kh3+1d4-1``."""

    terms: tuple[Term, ...]
    constant: int

    @classmethod
    def parse(cls, text: str) -> Notation:
        """The notation ``text`` writes: a NotationError naming the character where it does
        not read as notation, a LimitError where it asks more than a roll takes."""
        return _Reader(text).notation()

    def __str__(self) -> str:
        text = ""
        for term in self.terms:
            text += ("-" if term.sign < 0 else "+" if text else "") + str(term)
        if self.constant:
            text += f"{self.constant:+d}"
        return text


# --- reading ---------------------------------------------------------------------------------

_BLANKS = " \t"
_DIGITS = "0123456789"


class _Reader:
    """Reads a notation left to right, refusing at the first character it cannot take."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.starts: list[int] = []  # where each term begins

    def fail(self, expected: str, at: int | None = None) -> NotationError:
        at = self.at if at is None else at
        where = (
            f"at character {at + 1} ({self.text[at]!r})" if at < len(self.text) else "at its end"
        )
        return NotationError(
            f"cannot read dice notation {self.text!r} {where}: {expected}; "
            f"write terms like {EXAMPLES}"
        )

    def peek(self, word: str) -> bool:
        return self.text.startswith(word, self.at)

    def take(self, word: str) -> bool:
        if self.peek(word):
            self.at += len(word)
            return True
        return False

    def blanks(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in _BLANKS:
            self.at += 1

    def digits(self) -> str:
        start = self.at
        while self.at < len(self.text) and self.text[self.at] in _DIGITS:
            self.at += 1
        return self.text[start : self.at]

    def number(self, what: str, *, signed: bool = False) -> int:
        start = self.at
        negative = signed and self.take("-")
        found = self.digits()
        if not found:
            self.at = start
            raise self.fail(what)
        return -int(found) if negative else int(found)

    def compare(self, bare: bool = False) -> Compare | None:
        """A compare point (``>=5``); with ``bare``, a number alone is one too (``r1``)."""
        for operator in _OPERATORS:
            if self.take(operator):
                return Compare(operator, self.number("a number after " + operator, signed=True))
        number = self.digits() if bare else ""
        return Compare("=", int(number)) if number else None

    def notation(self) -> Notation:
        if not self.text.strip(_BLANKS):
            raise NotationError("dice notation is empty")
        terms: list[Term] = []
        constant = 0
        self.blanks()
        while True:
            sign = 1
            if self.take("-"):
                sign = -1
            elif not self.take("+") and (terms or constant):
                raise self.fail("a + or - before the next term")
            self.blanks()
            start = self.at
            count = self.digits()
            if self.take("d") or self.take("D"):
                terms.append(self.term(sign, int(count) if count else 1, start))
            elif count:
                constant += sign * int(count)
            else:
                raise self.fail("a number or a die (NdS)")
            self.blanks()
            if self.at == len(self.text):
                break
        if not terms:
            raise NotationError("dice notation needs at least one NdS term")
        self.limits(terms, constant)
        for term, start in zip(terms, self.starts, strict=True):
            self.meaningful(term, start)
        return Notation(tuple(terms), constant)

    def term(self, sign: int, count: int, start: int) -> Term:
        if self.take("F"):
            term = Term(sign=sign, count=count, sides=3, fudge=True)
        elif self.take("%"):
            term = Term(sign=sign, count=count, sides=100, percent=True)
        else:
            term = Term(sign=sign, count=count, sides=self.number("the sides of the die"))
        seen: set[str] = set()
        while self.at < len(self.text) and self.text[self.at] not in "+-" + _BLANKS:
            at = self.at
            kind, term = self.modifier(term)
            if kind in seen:
                raise self.fail(f"a term takes one {kind} modifier", at)
            seen.add(kind)
        self.starts.append(start)
        return term

    def modifier(self, term: Term) -> tuple[str, Term]:
        """One modifier of ``term``: which kind it is and the term with it."""
        if self.take("min"):
            return "min", replace(term, minimum=self.number("a number after min", signed=True))
        if self.take("max"):
            return "max", replace(term, maximum=self.number("a number after max", signed=True))
        if self.take("ro") or self.take("r"):
            once = self.text[self.at - 1] == "o"
            point = self.compare(bare=True) or Compare("=", term.faces[0])
            return "reroll", replace(term, reroll=point, reroll_once=once)
        if self.take("!"):
            compound = self.take("!")
            point = self.compare(bare=True) or Compare("=", term.faces[-1])
            return "explode", replace(term, explode=point, compound=compound)
        for word, keep in _KEEPS.items():
            if self.take(word):
                number = self.digits()
                return "keep or drop", replace(
                    term, keep=keep, keep_count=int(number) if number else 1
                )
        if self.take("f"):
            at = self.at - 1
            if term.success is None:
                raise self.fail("failures (f) come after a success (>=N, <N...)", at)
            failure = self.compare(bare=True)
            if failure is None:
                raise self.fail("a compare point after f (f<2, f1...)")
            return "failure", replace(term, failure=failure)
        success = self.compare()
        if success is not None:
            return "success", replace(term, success=success)
        raise self.fail("a modifier (r, ro, min, max, !, !!, kh, kl, dh, dl, >=N...) or + or -")

    def meaningful(self, term: Term, start: int) -> None:
        """Refuse a reroll or an explosion that every face meets: it could never stop."""
        for kind, point, (low, high) in (
            ("reroll", term.reroll, (term.faces[0], term.faces[-1])),
            ("explosion", term.explode, term.value_span),
        ):
            if point is None:
                continue
            lo, hi = point.bounds
            if lo <= low and high <= hi:
                raise self.fail(f"the {kind} {point} of {term} meets every face", start)

    def limits(self, terms: list[Term], constant: int) -> None:
        total_dice = sum(term.count for term in terms)
        if total_dice > MAX_NOTATION_DICE or any(term.count < 1 for term in terms):
            raise LimitError(
                f"a roll has 1 to {MAX_NOTATION_DICE} dice in all, not {total_dice}",
                field="notation",
            )
        if any(not 2 <= term.sides <= dice.MAX_SIDES for term in terms):
            raise LimitError(f"a die has 2 to {dice.MAX_SIDES} sides", field="notation")
        for term in terms:
            points = (term.reroll, term.explode, term.success, term.failure)
            numbers = [term.minimum, term.maximum, *(p.number for p in points if p is not None)]
            if any(n is not None and abs(n) > dice.MAX_SIDES for n in numbers) or (
                term.keep_count > MAX_NOTATION_DRAWS
            ):
                raise LimitError(
                    f"{term}: a modifier's number (min, max, a compare point) is at most "
                    f"{dice.MAX_SIDES} either way, and a keep or drop counts at most "
                    f"{MAX_NOTATION_DRAWS} dice",
                    field="notation",
                )
        if abs(constant) > MAX_NOTATION_CONSTANT:
            raise LimitError(
                f"the constant is at most {MAX_NOTATION_CONSTANT} either way", field="notation"
            )
        worst = sum(term.worst_draws() for term in terms)
        if worst > MAX_NOTATION_DRAWS:
            raise LimitError(
                f"with every reroll ({MAX_REROLLS} a die) and explosion ({MAX_EXPLOSIONS} a "
                f"die) it allows, this notation could draw {worst} dice; a roll draws at most "
                f"{MAX_NOTATION_DRAWS}",
                field="notation",
            )


# --- rolling -----------------------------------------------------------------------------------


class _Die:
    """One die drawn for a term, and what became of it."""

    __slots__ = ("number", "face", "value", "fate", "cause", "of", "exploded", "success")

    def __init__(self, number: int, face: int, value: int, cause: DieCause, of: int | None) -> None:
        self.number = number
        self.face = face
        self.value = value
        self.fate: DieFate = "kept"
        self.cause = cause
        self.of = of
        self.exploded = False
        self.success: DieSuccess | None = None

    def as_dict(self) -> RolledDie:
        out: RolledDie = {
            "die": self.number,
            "face": self.face,
            "value": self.value,
            "fate": self.fate,
            "cause": self.cause,
            "of": self.of,
            "exploded": self.exploded,
        }
        if self.success is not None:
            out["success"] = self.success
        return out


Draw = Callable[[str, int, int], "dice.Roll"]


def roll_term(term: Term, draw: Draw) -> RolledTerm:
    """Roll one term with ``draw(label, count, sides)`` (a Resolution's ``roll``), in the
    documented order, and say what became of every die."""
    label = str(replace(term, sign=1))
    drawn: list[_Die] = []

    def one(cause: DieCause, of: int) -> _Die:
        what = "reroll" if cause == "reroll" else "explosion"
        (value,) = draw(f"{label}: {what} of die {of}", 1, term.sides).values
        face = term.face(value)
        die = _Die(len(drawn) + 1, face, term.value(face), cause, of)
        drawn.append(die)
        return die

    first = draw(label, term.count, term.sides).values
    for value in first:
        face = term.face(value)
        drawn.append(_Die(len(drawn) + 1, face, term.value(face), "rolled", None))
    pool: list[_Die] = []
    for index in range(term.count):
        die = drawn[index]
        head = die = _settle(term, die, one)
        pool.append(head)
        for _ in range(term.explodes()):
            if term.explode is None or not term.explode(die.value):
                break
            die.exploded = True
            die = _settle(term, one("explosion", die.number), one)
            if term.compound:
                die.fate = "compounded"
                head.value += die.value
            else:
                pool.append(die)
    _keep(term, pool)
    total = 0
    for die in pool:
        if die.fate != "kept":
            continue
        if term.success is not None:
            score = term.score(die.value)
            die.success = "success" if score > 0 else "failure" if score < 0 else "neither"
        total += term.score(die.value)
    rolled: RolledTerm = {
        "label": label,
        "notation": label,
        "sign": term.sign,
        "counts": "sum" if term.success is None else "successes",
        "values": [die.value for die in pool],
        "total": total,
    }
    if term.modified:
        rolled["dice"] = [die.as_dict() for die in drawn]
    return rolled


def _settle(term: Term, die: _Die, one: Callable[[DieCause, int], _Die]) -> _Die:
    """The die that stands once ``die`` is rerolled while its face meets the reroll."""
    for _ in range(term.rerolls()):
        if term.reroll is None or not term.reroll(die.face):
            break
        die.fate = "rerolled"
        die = one("reroll", die.number)
    return die


def _keep(term: Term, pool: list[_Die]) -> None:
    """Mark the dice a keep or drop modifier leaves out (the earlier first among equals)."""
    if term.keep is None:
        return
    highest = sorted(pool, key=lambda die: (-die.value, die.number))
    lowest = sorted(pool, key=lambda die: (die.value, die.number))
    n = term.keep_count
    match term.keep:
        case "kh":
            dropped = highest[n:]
        case "kl":
            dropped = lowest[n:]
        case "dh":
            dropped = highest[:n]
        case _:
            dropped = lowest[:n]
    for die in dropped:
        die.fate = "dropped"


def roll(notation: Notation, draw: Draw) -> RollResult:
    """Roll every term in order; the total is each term with its sign, and the constant."""
    terms = [roll_term(term, draw) for term in notation.terms]
    return {
        "notation": str(notation),
        "total": sum(term["sign"] * term["total"] for term in terms) + notation.constant,
        "constant": notation.constant,
        "terms": terms,
    }
