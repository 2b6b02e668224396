"""Dice notation: read it, roll it from the one dice source, and work out its exact odds.

A notation that is more than a sum of terms (arithmetic, functions, roll groups) keeps its
terms here and the arithmetic over their totals in service/engine/notation_math.py.

The dialect is rpg-dice-roller's (docs/dice.md gives the grammar, and where the service
departs from it): terms of ``NdS`` (``d%`` is a d100, ``dF`` a Fate die of -1, 0, +1, ``dF.1``
one with a single -1 and a single +1 of six faces) and constants, joined by ``+`` and ``-``;
a term may carry, each kind at most once and in any order, ``min``/``max``, an explosion
(``!``, compounding ``!!``, penetrating ``!p``), a reroll (``r``, ``ro``), unique dice
(``u``, ``uo``), a keep (``kh``, ``kl``, ``k``) and a drop (``d``, ``dh``, ``dl``), success
counting (``>=N`` ... with failures ``f<N``), critical marks (``cs``, ``cf``) and sorting
(``s``, ``sa``, ``sd``).

Whatever order they are written in, a term's modifiers apply in rpg-dice-roller's order, each
to the whole pool before the next, and the term's dice are drawn in that order (the
``fc-dice-v1`` stream's, and supplied values'):

1. the term's N dice, in order (one roll of ``rolls``);
2. ``min`` then ``max``: each of the N dice counts at least ``min`` and at most ``max``;
3. the explosion, die by die: while the last die of a chain meets it (at most the term's
   explosion cap), one more die is drawn (a penetrating one counts one less; a compounding
   chain is one die of the summed value); the extra dice join the pool after their die;
4. the reroll, die by die over the pool: while a die's value meets it (at most the term's
   reroll cap; ``ro`` once), a new die replaces it;
5. unique, die by die over the pool from the second: while a die's value is an earlier
   die's (and meets its compare point, if it has one), a new die replaces it;
6. keep, then drop, each choosing from the whole pool sorted by value (the earlier die
   first among equal values): a die either leaves out is dropped;
7. the term adds its kept dice's values, or counts them: +1 for a success, -1 for a
   failure (a die that meets both is a success); critical marks and sorting change no total.

Every extra die (explosion, reroll, unique) is a one-die roll of ``rolls``. A Fate die is
drawn as a d3 (1, 2, 3 show -1, 0, +1) and a ``dF.1`` as a d6 (1 shows -1, 6 shows +1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from math import ceil, log
from typing import Any, Literal

from . import dice
from . import notation_math as math
from .dice_results import (
    DieCause,
    DieCritical,
    DieFate,
    DieSuccess,
    RolledDie,
    RolledTerm,
    RollResult,
)
from .errors import LimitError, NotationError

MAX_NOTATION_LENGTH = 200
MAX_NOTATION_DICE = 100
MAX_NOTATION_CONSTANT = 10_000
# Every die a notation could draw with every reroll and explosion it allows: the dice limit
# of a request, checked before any die is drawn (so no roll is refused half way by luck).
MAX_NOTATION_DRAWS = dice.MAX_DICE_PER_REQUEST
# A chain of rerolls, explosions or unique rerolls stops at a cap, so every roll is bounded
# and its odds exact. rpg-dice-roller's cap is 1000. Here a chain stops where reaching it has
# at most one chance in a million (``CAP_CHANCE``: a d6 exploding on 6 stops after 8, a d2
# after 20, a d20 after 5), never before ``MIN_CAP`` and never past the peer's 1000; where
# those caps could draw more than the request's 1000 dice, each is ``MIN_CAP``. A roll and
# its odds read the same caps, written on the term when it is read.
PEER_CAP = 1000
MIN_CAP = 5
CAP_CHANCE = Fraction(1, 1_000_000)
EXAMPLES = "3d6, 4d6d1, 4d6kh3, 2d20kl1, 3d6!, 10d6>=5, 4dF or 1d20+5"

Operator = Literal[">=", "<=", ">", "<", "=", "<>"]
# as written, the two-character operators first (``!=`` is read as ``<>``)
_OPERATORS: tuple[tuple[str, Operator], ...] = (
    (">=", ">="),
    ("<=", "<="),
    ("<>", "<>"),
    ("!=", "<>"),
    (">", ">"),
    ("<", "<"),
    ("=", "="),
)
Sort = Literal["sa", "sd"]


@dataclass(frozen=True)
class Compare:
    """A compare point: a die's value ``operator`` ``number``."""

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
            case "<>":
                return value != self.number
        return value == self.number

    def count(self, lo: int, hi: int) -> int:
        """How many of the integers ``lo..hi`` meet it (worked out, not counted one by one)."""
        n = self.number
        match self.operator:
            case ">=":
                lo = max(lo, n)
            case "<=":
                hi = min(hi, n)
            case ">":
                lo = max(lo, n + 1)
            case "<":
                hi = min(hi, n - 1)
            case "<>":
                return hi - lo + 1 - (1 if lo <= n <= hi else 0)
            case _:
                lo, hi = max(lo, n), min(hi, n)
        return max(0, hi - lo + 1)

    @property
    def edges(self) -> tuple[int, ...]:
        """The values next to where meeting it changes: a value's score changes only there."""
        n = self.number
        return (n - 1, n, n + 1)

    def __str__(self) -> str:
        return f"{self.operator}{self.number}"

    def written(self) -> str:
        """As a modifier writes it: ``=N`` as the number alone (``r1``, ``!5``, ``f1``)."""
        return str(self.number) if self.operator == "=" and self.number >= 0 else str(self)


@dataclass(frozen=True, kw_only=True)
class Term:
    """One ``NdS`` term and its modifiers; the caps of its chains are worked out when it is
    read (``with_caps``), so a roll and its odds stop at the same place."""

    sign: int = 1
    count: int
    sides: int  # the die drawn: a Fate die's 3 (``dF.1``: 6)
    fudge: bool = False
    fudge_ones: bool = False  # ``dF.1``: one -1 and one +1 of six faces
    percent: bool = False
    minimum: int | None = None
    maximum: int | None = None
    explode: Compare | None = None
    compound: bool = False
    penetrate: bool = False
    reroll: Compare | None = None
    reroll_once: bool = False
    unique: bool = False
    unique_once: bool = False
    unique_point: Compare | None = None
    picks: math.Picks = math.Picks()  # keep and drop
    success: Compare | None = None
    failure: Compare | None = None
    critical_success: Compare | None = None
    critical_failure: Compare | None = None
    sort: Sort | None = None
    explosion_cap: int = 0
    reroll_cap: int = 0
    unique_cap: int = 0

    @property
    def modified(self) -> bool:
        """Whether the term has a modifier (a plain NdS has none)."""
        return str(self) != f"{self.count}d{self.sides}"

    def face_ways(self) -> dict[int, int]:
        """Each face a drawn die shows, and in how many of the ``sides`` draws."""
        if self.fudge_ones:
            return {-1: 1, 0: 4, 1: 1}
        if self.fudge:
            return {-1: 1, 0: 1, 1: 1}
        return dict.fromkeys(range(1, self.sides + 1), 1)

    @property
    def least(self) -> int:
        return -1 if self.fudge else 1

    @property
    def most(self) -> int:
        return 1 if self.fudge else self.sides

    def face(self, drawn: int) -> int:
        """The face of a die drawn from the source (a Fate die is drawn as a d3 or a d6)."""
        if self.fudge_ones:
            return -1 if drawn == 1 else 1 if drawn == 6 else 0
        return drawn - 2 if self.fudge else drawn

    def value(self, face: int) -> int:
        """What one of the term's N dice counts after min and max (extra dice: their face)."""
        if self.minimum is not None and face < self.minimum:
            face = self.minimum
        if self.maximum is not None and face > self.maximum:
            face = self.maximum
        return face

    def chance(self, point: Compare | None) -> Fraction:
        """The chance a drawn die's face meets ``point``."""
        if point is None:
            return Fraction(0)
        if self.fudge:
            ways = self.face_ways()
            return Fraction(sum(n for face, n in ways.items() if point(face)), self.sides)
        return Fraction(point.count(1, self.sides), self.sides)

    def worst_draws(self) -> int:
        """The most dice the term can draw: each die of a chain rerolled to its caps."""
        reroll = 0 if self.reroll is None else self.reroll_cap
        unique = self.unique_cap if self.unique else 0
        return self.count * (1 + self.explosion_cap) * (1 + reroll + unique)

    def total_span(self) -> tuple[int, int]:
        """The least and most the term can total (a bound: each die of the pool within the
        values any die can take, the pool and the kept dice as few or many as they can be)."""
        links = 1 + self.explosion_cap
        if self.success is not None:
            low, high = (-1 if self.failure is not None else 0), 1
        else:
            values = [self.value(self.least), self.value(self.most), self.least, self.most]
            pen = 1 if self.penetrate else 0
            low, high = min(values) - pen, max(values)
        pool_low, pool_high = self.count, self.count * links
        if self.compound and self.success is None:
            low, high = min(low, low * links), max(high, high * links)
            pool_low = pool_high = self.count
        kept_low = 0 if self.picks else pool_low
        kept_high = pool_high
        for keep in (self.picks.keep_high, self.picks.keep_low):
            kept_high = min(kept_high, keep or kept_high)
        corners = [n * v for n in (kept_low, kept_high) for v in (low, high)]
        return min(corners), max(corners)

    def score(self, value: int) -> int:
        """What a kept die of this value adds to the term."""
        if self.success is None:
            return value
        if self.success(value):
            return 1
        return -1 if self.failure is not None and self.failure(value) else 0

    def _sides_written(self) -> str:
        if self.fudge:
            return "F.1" if self.fudge_ones else "F"
        return "%" if self.percent else str(self.sides)

    def __str__(self) -> str:
        text = f"{self.count}d{self._sides_written()}"
        if self.minimum is not None:
            text += f"min{self.minimum}"
        if self.maximum is not None:
            text += f"max{self.maximum}"
        if self.explode is not None:
            point = self.explode
            text += "!" + ("!" if self.compound else "") + ("p" if self.penetrate else "")
            text += "" if point == Compare("=", self.most) else point.written()
        if self.reroll is not None:
            text += ("ro" if self.reroll_once else "r") + self.reroll.written()
        if self.unique:
            text += ("uo" if self.unique_once else "u") + str(self.unique_point or "")
        text += str(self.picks)
        if self.success is not None:
            text += str(self.success)
        if self.failure is not None:
            text += "f" + self.failure.written()
        if self.critical_success is not None:
            text += "cs" + self.critical_success.written()
        if self.critical_failure is not None:
            text += "cf" + self.critical_failure.written()
        if self.sort is not None:
            text += self.sort
        return text


def _cap(chance: Fraction) -> int:
    """The fewest links (at least ``MIN_CAP``, at most ``PEER_CAP``) a chain that goes on with
    ``chance`` reaches with at most ``CAP_CHANCE``."""
    if chance == 0:
        return 0
    if chance == 1:
        return PEER_CAP
    # chance**cap <= CAP_CHANCE: from logarithms, then made sure in whole numbers
    cap = max(MIN_CAP, min(PEER_CAP, ceil(log(CAP_CHANCE) / log(chance))))
    a, b = chance.numerator, chance.denominator
    c, d = CAP_CHANCE.numerator, CAP_CHANCE.denominator

    def reached(k: int) -> bool:
        return bool(a**k * d <= c * b**k)

    while cap < PEER_CAP and not reached(cap):
        cap += 1
    while cap > MIN_CAP and reached(cap - 1):
        cap -= 1
    return cap


def with_caps(term: Term, lowest: bool = False) -> Term:
    """``term`` with the caps of its chains (all ``MIN_CAP`` where ``lowest``)."""

    def cap(chance: Fraction) -> int:
        # at least 1: a die min or max moved (or a compounded sum) may meet a point no face
        # meets, and goes once
        return MIN_CAP if lowest else max(1, _cap(chance))

    if term.explode is None and term.reroll is None and not term.unique:
        return term
    explosion = 0 if term.explode is None else cap(term.chance(term.explode))
    reroll = 0
    if term.reroll is not None:
        reroll = 1 if term.reroll_once else cap(term.chance(term.reroll))
    unique = 0
    if term.unique:
        chance = Fraction(min(term.count - 1, term.sides), term.sides)
        unique = 1 if term.unique_once else cap(chance)
    return replace(term, explosion_cap=explosion, reroll_cap=reroll, unique_cap=unique)


@dataclass(frozen=True)
class Notation:
    """Terms with their signs and a constant, e.g. ``4d6kh3+1d4-1``; or, for a notation that
    is more than a sum (``floor(4d6kh3/2)``), its terms and the ``expression`` over their
    totals (service/engine/notation_math.py)."""

    terms: tuple[Term, ...]
    constant: int
    expression: math.Expr | None = None

    @classmethod
    def parse(cls, text: str) -> Notation:
        """The notation ``text`` writes: a NotationError naming the character where it does
        not read as notation, a LimitError where it asks more than a roll takes."""
        return _Reader(text).notation()

    def __str__(self) -> str:
        if self.expression is not None:
            return math.written(self.expression, lambda index: str(self.terms[index]))
        text = ""
        for term in self.terms:
            text += ("-" if term.sign < 0 else "+" if text else "") + str(term)
        if self.constant or not text:
            text += f"{self.constant:+d}" if text else str(self.constant)
        return text


# --- reading ---------------------------------------------------------------------------------

_BLANKS = " \t"
_ENDS = "+-*/%^(),.{}#\n\r" + _BLANKS  # what ends a term's modifiers
_SKIPS = _BLANKS + "\n\r#/"  # what may start a blank or a comment
_FUNCTION_LETTERS = {name[0] for name in math.FUNCTIONS}
_DIGITS = "0123456789"
_MODIFIERS = (
    "a modifier (min, max, !, !!, !p, r, ro, u, uo, kh, kl, k, d, dh, dl, >=N..., f, cs, cf, "
    "s, sa, sd) or an operator"
)


def _dice_in(node: math.Expr) -> list[math.Dice]:
    """The dice terms ``node`` reads."""
    match node:
        case math.Dice():
            return [node]
        case math.Neg(arg):
            return _dice_in(arg)
        case math.Op(_, left, right, _):
            return _dice_in(left) + _dice_in(right)
        case math.Call(_, args, _) | math.Group(args):
            return [d for arg in args for d in _dice_in(arg)]
    return []


Flat = list[tuple[int, "math.Dice | math.Num"]]


def _flat(node: math.Expr) -> Flat | None:
    """A sum of dice terms and whole numbers as (sign, leaf) pairs in order, or None."""
    match node:
        case math.Dice() | math.Num() if not isinstance(node, math.Num) or (
            isinstance(node.value, int)
        ):
            return [(1, node)]
        case math.Neg(arg):
            inner = _flat(arg)
            return None if inner is None else [(-sign, leaf) for sign, leaf in inner]
        case math.Op("+" | "-", left, right, _):
            a, b = _flat(left), _flat(right)
            if a is None or b is None:
                return None
            flip = -1 if node.op == "-" else 1
            return a + [(flip * sign, leaf) for sign, leaf in b]
    return None


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
        """Skip blanks and comments (rpg-dice-roller's: ``# ...`` and ``// ...`` to the end
        of the line, ``/* ... */``), which stand where a blank may."""
        while self.at < len(self.text) and self.text[self.at] in _SKIPS:
            if self.text[self.at] in _BLANKS + "\n\r":
                self.at += 1
            elif self.peek("#") or self.peek("//"):
                end = self.text.find("\n", self.at)
                self.at = len(self.text) if end == -1 else end
            elif self.peek("/*"):
                end = self.text.find("*/", self.at + 2)
                if end == -1:
                    raise self.fail("a */ to close the comment")
                self.at = end + 2
            else:
                return  # a / that opens no comment: a division

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
        for written, operator in _OPERATORS:
            if self.take(written):
                return Compare(operator, self.number("a number after " + written, signed=True))
        number = self.digits() if bare else ""
        return Compare("=", int(number)) if number else None

    def notation(self) -> Notation:
        if not self.text.strip(_BLANKS + "\n\r"):
            raise NotationError("dice notation is empty")
        self.terms: list[Term] = []
        tree = self.sum()
        self.blanks()
        if self.at != len(self.text):
            raise self.fail("an operator (+, -, *, /, %, ^) before the next term")
        terms = self.terms
        if any(not 2 <= term.sides <= dice.MAX_SIDES for term in terms):
            raise LimitError(f"a die has 2 to {dice.MAX_SIDES} sides", field="notation")
        for index, (term, start) in enumerate(zip(terms, self.starts, strict=True)):
            self.meaningful(term, start)
            terms[index] = with_caps(term)
        flat = _flat(tree)
        if flat is not None:  # a sum: its terms with their signs, and a constant
            constant = 0
            for sign, leaf in flat:
                if isinstance(leaf, math.Dice):
                    if sign != 1:
                        terms[leaf.index] = replace(terms[leaf.index], sign=sign)
                else:
                    constant += sign * int(leaf.value)
            self.limits(terms, constant)
            return Notation(tuple(terms), constant)
        self.limits(terms, 0)
        if any(
            not -MAX_NOTATION_CONSTANT <= n <= MAX_NOTATION_CONSTANT for n in math.numbers(tree)
        ):
            raise LimitError(
                f"a number is at most {MAX_NOTATION_CONSTANT} either way", field="notation"
            )
        spans: math.Spans = {}
        try:
            found = math.span(tree, [term.total_span() for term in terms], spans)
        except math.MathError as error:
            raise self.fail(error.why, error.at) from None
        if not found.whole:
            raise self.fail(
                "the total would not always be a whole number: write a division or a "
                "decimal inside floor(), ceil() or round()",
                math.fraction_at(tree, spans),
            )
        return Notation(tuple(terms), 0, tree)

    def sum(self) -> math.Expr:
        node = self.product()
        while True:
            self.blanks()
            at = self.at
            if not (self.take("+") or self.take("-")):
                return node
            node = math.Op(self.text[at], node, self.product(), at)

    def product(self) -> math.Expr:
        node = self.unary()
        while True:
            self.blanks()
            at = self.at
            if self.peek("**") or not (self.take("*") or self.take("/") or self.take("%")):
                return node
            node = math.Op(self.text[at], node, self.unary(), at)

    def unary(self) -> math.Expr:
        self.blanks()
        if self.take("-"):
            return math.Neg(self.unary())
        node = self.atom()
        self.blanks()
        at = self.at
        if self.take("**") or self.take("^"):
            return math.Op("^", node, self.unary(), at)
        return node

    def atom(self) -> math.Expr:
        self.blanks()
        start = self.at
        if self.take("("):
            node = self.sum()
            self.blanks()
            if not self.take(")"):
                raise self.fail("a ) to close the ( at character " + str(start + 1))
            if self.peek("d") or self.peek("D"):  # a count worked out: (4*6)d6
                worked_out = self.whole(node, start, "a count of dice")
                self.at += 1
                self.terms.append(self.term(1, worked_out, start))
                return math.Dice(len(self.terms) - 1)
            return node
        letter = self.at < len(self.text) and self.text[self.at] in _FUNCTION_LETTERS
        for name, arity in math.FUNCTIONS.items() if letter else ():
            if self.take(name + "("):
                args = [self.sum()]
                for _ in range(arity - 1):
                    self.blanks()
                    if not self.take(","):
                        raise self.fail(f"a , before {name}'s second number")
                    args.append(self.sum())
                self.blanks()
                if not self.take(")"):
                    raise self.fail(f"a ) to close {name}(")
                return math.Call(name, tuple(args), start)
        if self.take("{"):
            return self.group(start)
        count = self.digits()
        if self.take("d") or self.take("D"):
            self.terms.append(self.term(1, int(count) if count else 1, start))
            return math.Dice(len(self.terms) - 1)
        if count:
            if self.peek(".") and self.text[self.at + 1 : self.at + 2].isdigit():
                self.at += 1
                count += "." + self.digits()
            return math.Num(Fraction(count) if "." in count else int(count), start)
        raise self.fail("a number or a die (NdS)")

    def whole(self, node: math.Expr, at: int, what: str) -> int:
        """The whole number that ``node``, of numbers alone, works out to (a count or sides
        written in parentheses, as rpg-dice-roller allows), or a refusal at ``at``."""
        if any(True for _ in _dice_in(node)):
            raise self.fail(f"{what} in parentheses is worked out from numbers, not dice", at)
        try:
            math.span(node, [])
            value = math.evaluate(node, [])
        except (math.MathError, ZeroDivisionError, OverflowError):
            raise self.fail(f"{what} in parentheses is a whole number", at) from None
        if not isinstance(value, int) and value.denominator != 1:
            raise self.fail(f"{what} in parentheses is a whole number, not {float(value):g}", at)
        return int(value)

    def pick(self) -> tuple[str, str, int] | None:
        """A keep or a drop (``kh3``, ``k``, ``kl1``, ``d1``, ``dh``...): its kind, the field of
        ``Picks`` it sets and its count (left out: 1), or None."""
        if self.take("k"):
            low = self.take("l")
            if not low:
                self.take("h")
            kind = "keep lowest" if low else "keep highest"
        elif self.peek("d") and self.text[self.at + 1 : self.at + 2] in ("h", "l", *_DIGITS):
            self.at += 1
            high = self.take("h")
            if not high:
                self.take("l")
            kind = "drop highest" if high else "drop lowest"
        else:
            return None
        at = self.at
        number = self.digits()
        count = int(number) if number else 1
        if count < 1:
            raise self.fail(f"a {kind} of 1 or more", at)
        return kind, kind.replace("est", "").replace(" ", "_"), count

    def group(self, start: int) -> math.Expr:
        """``{a, b, ...}`` and the group's modifiers (keep, drop, successes, sort)."""
        parts = [self.sum()]
        while True:
            self.blanks()
            if self.take("}"):
                break
            if not self.take(","):
                raise self.fail("a , or a } in the group opened at character " + str(start + 1))
            parts.append(self.sum())
        changes: dict[str, Any] = {}
        picks: dict[str, int] = {}
        seen: list[str] = []
        while self.at < len(self.text) and self.text[self.at] not in _ENDS + "}":
            at = self.at
            pick = self.pick()
            if pick is not None:
                kind, field, count = pick
                picks[field] = count
            elif self.take("s"):
                kind = "sort"
                changes["sort"] = "sd" if self.take("d") else "sa"
                self.take("a")
            elif self.take("f"):
                kind = "failure"
                if seen[-1:] != ["success"]:
                    raise self.fail(
                        "failures (f) come after a success (>=N, <N...), right after it", at
                    )
                changes["failure"] = self.compare(bare=True)
                if changes["failure"] is None:
                    raise self.fail("a compare point after f (f<2, f1...)")
            else:
                kind = "success"
                changes["success"] = self.compare()
                if changes["success"] is None:
                    raise self.fail("a group's modifier (k, kh, kl, d, dh, dl, >=N..., f, s, sd)")
            if kind in seen:
                raise self.fail(f"a group takes one {kind} modifier", at)
            seen.append(kind)
        if picks:
            changes["picks"] = math.Picks(**picks)
        if len(parts) == 1:
            if changes:
                raise self.fail(
                    "a group of one sub-roll with modifiers is not read (its modifiers would "
                    "act on each die of the sub-roll): write them on its dice",
                    start,
                )
            return parts[0]
        return math.Group(tuple(parts), start, **changes)

    def term(self, sign: int, count: int, start: int) -> Term:
        if self.take("F"):
            ones = self.take(".1")
            if not ones:
                self.take(".2")
            term = Term(sign=sign, count=count, sides=6 if ones else 3, fudge=True, fudge_ones=ones)
        elif self.take("%"):
            term = Term(sign=sign, count=count, sides=100, percent=True)
        elif self.peek("("):  # sides worked out: 6d(3*2)
            at = self.at
            self.at += 1
            node = self.sum()
            self.blanks()
            if not self.take(")"):
                raise self.fail("a ) to close the ( at character " + str(at + 1))
            sides = self.whole(node, at, "the sides of the die")
            term = Term(sign=sign, count=count, sides=sides)
        else:
            term = Term(sign=sign, count=count, sides=self.number("the sides of the die"))
        seen: list[str] = []
        changes: dict[str, Any] = {}
        while self.at < len(self.text) and self.text[self.at] not in _ENDS:
            at = self.at
            kind, fields = self.modifier(term)
            if kind in seen:
                raise self.fail(f"a term takes one {kind} modifier", at)
            if kind == "failure" and seen[-1:] != ["success"]:
                raise self.fail(
                    "failures (f) come after a success (>=N, <N...), right after it", at
                )
            seen.append(kind)
            if "picks" in fields:
                fields = {"picks": {**changes.get("picks", {}), **fields["picks"]}}
            changes.update(fields)
        self.starts.append(start)
        if "picks" in changes:
            changes["picks"] = math.Picks(**changes["picks"])
        return replace(term, **changes) if changes else term

    def modifier(self, term: Term) -> tuple[str, dict[str, Any]]:
        """One modifier of ``term``: which kind it is and the fields it sets."""
        if self.take("min"):
            return "min", dict(minimum=self.number("a number after min", signed=True))
        if self.take("max"):
            return "max", dict(maximum=self.number("a number after max", signed=True))
        if self.take("!"):
            compound = self.take("!")
            penetrate = self.take("p")
            point = self.compare(bare=True) or Compare("=", term.most)
            return "explode", dict(explode=point, compound=compound, penetrate=penetrate)
        if self.take("ro") or self.take("r"):
            once = self.text[self.at - 1] == "o"
            point = self.compare(bare=True) or Compare("=", term.least)
            return "reroll", dict(reroll=point, reroll_once=once)
        if self.take("uo") or self.take("u"):
            once = self.text[self.at - 1] == "o"
            return "unique", dict(unique=True, unique_once=once, unique_point=self.compare())
        if self.take("cs") or self.take("cf"):
            if self.text[self.at - 1] == "s":
                point = self.compare(bare=True) or Compare("=", term.most)
                return "critical success", dict(critical_success=point)
            point = self.compare(bare=True) or Compare("=", term.least)
            return "critical failure", dict(critical_failure=point)
        pick = self.pick()
        if pick is not None:
            kind, field, count = pick
            return kind, {"picks": {field: count}}
        if self.take("s"):
            descending = self.take("d")
            if not descending:
                self.take("a")
            return "sort", dict(sort="sd" if descending else "sa")
        if self.take("f"):
            failure = self.compare(bare=True)
            if failure is None:
                raise self.fail("a compare point after f (f<2, f1...)")
            return "failure", dict(failure=failure)
        success = self.compare()
        if success is not None:
            return "success", dict(success=success)
        raise self.fail(_MODIFIERS)

    def meaningful(self, term: Term, start: int) -> None:
        """Refuse a chain that every face goes on with: it would always run to its cap."""
        for kind, point, once in (
            ("reroll", term.reroll, term.reroll_once),
            ("explosion", term.explode, False),
        ):
            if point is not None and not once and term.chance(point) == 1:
                raise self.fail(f"the {kind} {point} of {term} meets every face", start)
        if term.unique and not term.unique_once and term.count > len(term.face_ways()):
            raise self.fail(
                f"{term} asks for {term.count} different faces of a die of {len(term.face_ways())}",
                start,
            )

    def limits(self, terms: list[Term], constant: int) -> None:
        total_dice = sum(term.count for term in terms)
        if total_dice > MAX_NOTATION_DICE or any(term.count < 1 for term in terms):
            raise LimitError(
                f"a roll has 1 to {MAX_NOTATION_DICE} dice in all, not {total_dice}",
                field="notation",
            )
        for term in terms:
            points = (
                term.reroll,
                term.explode,
                term.success,
                term.failure,
                term.unique_point,
                term.critical_success,
                term.critical_failure,
            )
            numbers = [term.minimum, term.maximum, *(p.number for p in points if p is not None)]
            if any(n is not None and abs(n) > dice.MAX_SIDES for n in numbers) or (
                max(term.picks.counts()) > MAX_NOTATION_DRAWS
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
            terms[:] = [with_caps(term, lowest=True) for term in terms]
            worst = sum(term.worst_draws() for term in terms)
        if worst > MAX_NOTATION_DRAWS:
            raise LimitError(
                f"with every reroll and explosion it allows (at most {MIN_CAP} a die where "
                f"more would pass the limit), this notation could draw {worst} dice; a roll "
                f"draws at most {MAX_NOTATION_DRAWS}",
                field="notation",
            )


# --- rolling -----------------------------------------------------------------------------------


class _Die:
    """One die drawn for a term, and what became of it."""

    __slots__ = (
        "number",
        "face",
        "value",
        "fate",
        "cause",
        "of",
        "exploded",
        "penetrated",
        "success",
        "critical",
    )

    def __init__(self, number: int, face: int, value: int, cause: DieCause, of: int | None) -> None:
        self.number = number
        self.face = face
        self.value = value
        self.fate: DieFate = "kept"
        self.cause = cause
        self.of = of
        self.exploded = False
        self.penetrated = False
        self.success: DieSuccess | None = None
        self.critical: DieCritical | None = None

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
        if self.penetrated:
            out["penetrated"] = True
        if self.success is not None:
            out["success"] = self.success
        if self.critical is not None:
            out["critical"] = self.critical
        return out


Draw = Callable[[str, int, int], "dice.Roll"]


def roll_term(term: Term, draw: Draw) -> RolledTerm:
    """Roll one term with ``draw(label, count, sides)`` (a Resolution's ``roll``), in the
    documented order, and say what became of every die."""
    label = str(replace(term, sign=1))
    drawn: list[_Die] = []

    def one(cause: DieCause, of: int) -> _Die:
        what = {"reroll": "reroll", "explosion": "explosion", "unique": "unique reroll"}[cause]
        (value,) = draw(f"{label}: {what} of die {of}", 1, term.sides).values
        face = term.face(value)
        die = _Die(len(drawn) + 1, face, face, cause, of)
        drawn.append(die)
        return die

    for value in draw(label, term.count, term.sides).values:
        face = term.face(value)
        drawn.append(_Die(len(drawn) + 1, face, term.value(face), "rolled", None))
    pool = _explode(term, list(drawn), one)
    _reroll(term, pool, one)
    _unique(term, pool, one)
    _keep(term, pool)
    total = 0
    for die in pool:
        score = term.score(die.value)
        if term.success is not None:
            die.success = "success" if score > 0 else "failure" if score < 0 else "neither"
        if die.fate == "kept":
            total += score
        high = term.critical_success is not None and term.critical_success(die.value)
        low = term.critical_failure is not None and term.critical_failure(die.value)
        if high or low:
            die.critical = "both" if high and low else "success" if high else "failure"
    values = [die.value for die in pool]
    if term.sort is not None:
        values.sort(reverse=term.sort == "sd")
    rolled: RolledTerm = {
        "label": label,
        "notation": label,
        "sign": term.sign,
        "counts": "sum" if term.success is None else "successes",
        "values": values,
        "total": total,
    }
    if term.modified:
        rolled["dice"] = [die.as_dict() for die in drawn]
    return rolled


Another = Callable[[DieCause, int], _Die]


def _explode(term: Term, pool: list[_Die], one: Another) -> list[_Die]:
    """Each die's chain of explosions, after it in the pool (a compounding chain: one die)."""
    if term.explode is None:
        return pool
    exploded: list[_Die] = []
    for head in pool:
        chain = [head]
        meets = term.explode(head.value)
        for _ in range(term.explosion_cap):
            if not meets:
                break
            last = chain[-1]
            last.exploded = True
            die = one("explosion", last.number)
            meets = term.explode(die.face)  # a penetrating die is compared as it shows
            if term.penetrate:
                last.penetrated = True
                die.value -= 1
            chain.append(die)
        if term.compound and len(chain) > 1:
            head.value = sum(die.value for die in chain)
            for die in chain[1:]:
                die.fate = "compounded"
            exploded.append(head)
        else:
            exploded += chain
    return exploded


def _reroll(term: Term, pool: list[_Die], one: Another) -> None:
    """Each die of the pool, replaced while its value meets the reroll."""
    if term.reroll is None:
        return
    for index, die in enumerate(pool):
        for _ in range(term.reroll_cap):
            if not term.reroll(die.value):
                break
            die.fate = "rerolled"
            die = pool[index] = one("reroll", die.number)


def _unique(term: Term, pool: list[_Die], one: Another) -> None:
    """From the second die on, each die whose value an earlier die shows (and meets the
    compare point, if there is one), replaced until it is new."""
    if not term.unique:
        return
    point = term.unique_point
    for index in range(1, len(pool)):
        die = pool[index]
        for _ in range(term.unique_cap):
            earlier = [other.value for other in pool[:index]]
            if (point is not None and not point(die.value)) or die.value not in earlier:
                break
            die.fate = "rerolled"
            die = pool[index] = one("unique", die.number)


def kept_slice(term: Term, size: int) -> tuple[int, int]:
    """Which dice of a pool of ``size``, sorted by value from the lowest (the earlier die
    first among equals), a term keeps: those from the first index to before the second.
    A keep and a drop each leave dice out of the whole pool; a die either leaves out is out.
    """
    return term.picks.kept(size)


def _keep(term: Term, pool: list[_Die]) -> None:
    """Mark the dice keep and drop leave out."""
    if not term.picks:
        return
    ordered = sorted(pool, key=lambda die: die.value)  # stable: the earlier die first
    lo, hi = kept_slice(term, len(pool))
    for index, die in enumerate(ordered):
        if not lo <= index < hi:
            die.fate = "dropped"


def roll(notation: Notation, draw: Draw) -> RollResult:
    """Roll every term in order; the total is each term with its sign, and the constant (or
    the notation's expression over the terms' totals)."""
    terms = [roll_term(term, draw) for term in notation.terms]
    if notation.expression is not None:
        value = math.evaluate(notation.expression, [term["total"] for term in terms])
        total = int(value)  # a whole number: the notation was read only if it always is
    else:
        total = sum(term["sign"] * term["total"] for term in terms) + notation.constant
    return {
        "notation": str(notation),
        "total": total,
        "constant": notation.constant,
        "terms": terms,
    }
