"""Arithmetic over dice terms: the expression of a notation that is more than a sum.

rpg-dice-roller reads ``*``, ``/``, ``%``, ``^`` (and ``**``), parentheses and math
functions around its dice (``floor(4d6kh3 / 2)``, ``max(1d20, 1d20) + 5``). Here an
expression is a small tree whose leaves are numbers and the notation's dice terms (each
term once, by its place in the notation); its value is worked out exactly, in fractions,
with the meanings rpg-dice-roller's math library gives them: ``%`` is the floored
remainder (it takes the divisor's sign: ``-7 % 3`` is 2) and ``round`` takes halves away
from zero.

Before any die is drawn, the tree is checked from the least and most each term can total
(``span``): a total is a whole number (a division or a decimal outside ``floor``, ``ceil``
or ``round`` is refused: a roll's total is an integer on the wire), nothing can be divided
by zero, an exponent is a whole number from 0 to ``MAX_EXPONENT``, and no value along the
way passes ``MAX_VALUE`` either way (signed answers carry integers up to 2^53).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor
from typing import Protocol

# A value: a whole number as an int (fast), a fraction only where a division makes one.
Number = int | Fraction
MAX_VALUE = 10**9
MAX_EXPONENT = 64
FUNCTIONS = {"abs": 1, "ceil": 1, "floor": 1, "round": 1, "sign": 1, "max": 2, "min": 2, "pow": 2}
OPERATORS = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2, "^": 3}


@dataclass(frozen=True)
class Num:
    value: Number
    at: int = 0  # where it is written, for a refusal

    def __str__(self) -> str:
        v = self.value
        if isinstance(v, int) or v.denominator == 1:
            return str(int(v))
        return format(float(v), "g") if float(v) == v else str(v)


@dataclass(frozen=True)
class Dice:
    index: int  # the term's place in the notation


@dataclass(frozen=True)
class Neg:
    arg: Expr


@dataclass(frozen=True)
class Op:
    op: str
    left: Expr
    right: Expr
    at: int  # where the operator is written, for a refusal


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[Expr, ...]
    at: int


class Point(Protocol):
    """A compare point (service/engine/notation.py's ``Compare``)."""

    def __call__(self, value: int) -> bool: ...

    def written(self) -> str: ...


@dataclass(frozen=True)
class Picks:
    """Keeps and drops, each over the whole pool sorted from the lowest (the earlier first
    among equals): keep the highest or lowest N, drop the highest or lowest N (0: none). A
    thing any of them leaves out is out, so what stays is one run of the sorted pool."""

    keep_high: int = 0
    keep_low: int = 0
    drop_high: int = 0
    drop_low: int = 0

    def __bool__(self) -> bool:
        return any((self.keep_high, self.keep_low, self.drop_high, self.drop_low))

    def kept(self, size: int) -> tuple[int, int]:
        """The run of a sorted pool of ``size`` that stays: from the first index to before
        the second."""
        lo, hi = 0, size
        if self.keep_high:
            lo = max(lo, size - self.keep_high)
        if self.keep_low:
            hi = min(hi, self.keep_low)
        if self.drop_high:
            hi = min(hi, size - self.drop_high)
        if self.drop_low:
            lo = max(lo, self.drop_low)
        lo = min(max(lo, 0), size)
        return lo, min(max(hi, lo), size)

    def counts(self) -> tuple[int, ...]:
        return (self.keep_high, self.keep_low, self.drop_high, self.drop_low)

    def __str__(self) -> str:
        words = ("kh", "kl", "dh", "dl")
        return "".join(f"{word}{n}" for word, n in zip(words, self.counts(), strict=True) if n)


@dataclass(frozen=True)
class Group:
    """A roll group ``{a, b, ...}`` of two or more sub-rolls, and what it does with their
    totals: keep and drop (each over all of them, sorted by total, the earlier first among
    equals), count successes (and failures), sort; with none, it adds them up."""

    parts: tuple[Expr, ...]
    at: int
    picks: Picks = Picks()
    success: Point | None = None
    failure: Point | None = None
    sort: str | None = None  # "sa" or "sd"

    def kept(self, totals: Sequence[Number]) -> list[bool]:
        """Which of the sub-rolls' totals the group keeps."""
        order = sorted(range(len(totals)), key=lambda i: totals[i])  # stable
        lo, hi = self.picks.kept(len(totals))
        kept = [False] * len(totals)
        for place, index in enumerate(order):
            kept[index] = lo <= place < hi
        return kept

    def score(self, total: Number) -> int | Number:
        if self.success is None:
            return total
        whole = int(total)
        if self.success(whole):
            return 1
        return -1 if self.failure is not None and self.failure(whole) else 0

    def value(self, totals: Sequence[Number]) -> Number:
        return sum((self.score(t) for t, k in zip(totals, self.kept(totals), strict=True) if k), 0)

    def modifiers(self) -> str:
        text = str(self.picks)
        if self.success is not None:
            text += self.success.written()
            if self.failure is not None:
                text += "f" + self.failure.written()
        return text + (self.sort or "")


Expr = Num | Dice | Neg | Op | Call | Group


class MathError(Exception):
    """An expression the service refuses: where, and why."""

    def __init__(self, at: int, why: str) -> None:
        super().__init__(why)
        self.at = at
        self.why = why


def _abs(a: Number) -> Number:
    return -a if a < 0 else a


def _round(a: Number) -> Number:
    """The nearest whole number, halves away from zero."""
    half: Fraction = _abs(a) + Fraction(1, 2)
    return floor(half) * (1 if a >= 0 else -1)


def _sign(a: Number) -> Number:
    return (a > 0) - (a < 0)


def _divide(a: Number, b: Number) -> Number:
    quotient = Fraction(a) / b
    return quotient.numerator if quotient.denominator == 1 else quotient


BINARY: dict[str, Callable[[Number, Number], Number]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _divide,
    "%": lambda a, b: a % b,
    "^": lambda a, b: a ** int(b),
    "pow": lambda a, b: a ** int(b),
    "max": max,
    "min": min,
}
UNARY: dict[str, Callable[[Number], Number]] = {
    "-": lambda a: -a,
    "abs": _abs,
    "ceil": ceil,
    "floor": floor,
    "round": _round,
    "sign": _sign,
}


def numbers(node: Expr) -> list[Number]:
    """Every number written in ``node``."""
    match node:
        case Num(value):
            return [value]
        case Neg(arg):
            return numbers(arg)
        case Op(_, left, right, _):
            return numbers(left) + numbers(right)
        case Call(_, args, _):
            return [n for arg in args for n in numbers(arg)]
        case Group(parts):
            return [n for part in parts for n in numbers(part)]
    return []


def evaluate(node: Expr, totals: Sequence[int]) -> Number:
    """The value of ``node`` with each term's total."""
    match node:
        case Num(value):
            return value
        case Dice(index):
            return totals[index]
        case Neg(arg):
            return -evaluate(arg, totals)
        case Op(op, left, right, _):
            return BINARY[op](evaluate(left, totals), evaluate(right, totals))
        case Call(name, args, _):
            values = [evaluate(arg, totals) for arg in args]
            return UNARY[name](values[0]) if len(values) == 1 else BINARY[name](*values)
        case Group(parts):
            return node.value([evaluate(part, totals) for part in parts])
    raise AssertionError(node)


@dataclass(frozen=True)
class Span:
    """The least and most a node can be, and whether it is always a whole number."""

    lo: Number
    hi: Number
    whole: bool


Spans = dict[int, Span]  # each node's span, by the node's id: every node is worked out once


def span(node: Expr, terms: Sequence[tuple[int, int]], memo: Spans | None = None) -> Span:
    """``node``'s span from each term's least and most total, refusing (``MathError``) what
    cannot be a roll's total: see the module's docstring. ``memo`` keeps every node's."""
    memo = {} if memo is None else memo
    found = memo.get(id(node))
    if found is not None:
        return found
    found = _span(node, terms, memo)
    if _abs(found.lo) > MAX_VALUE or _abs(found.hi) > MAX_VALUE:
        raise MathError(_where(node), f"a value could pass {MAX_VALUE:,} either way")
    memo[id(node)] = found
    return found


def _where(node: Expr) -> int:
    return node.at if isinstance(node, Op | Call | Num | Group) else 0


def fraction_at(node: Expr, spans: Spans) -> int:
    """Where a value that may be a fraction is first made, outside ``floor``, ``ceil`` and
    ``round`` (the node whose span is not whole while its parts' are)."""
    match node:
        case Neg(arg):
            return fraction_at(arg, spans)
        case Op(_, left, right, at):
            for part in (left, right):
                if not spans[id(part)].whole:
                    return fraction_at(part, spans)
            return at
        case Call(_, args, at) | Group(args, at):
            for part in args:
                if not spans[id(part)].whole:
                    return fraction_at(part, spans)
            return at
    return _where(node)


def _span(node: Expr, terms: Sequence[tuple[int, int]], memo: Spans) -> Span:
    match node:
        case Num(value):
            return Span(value, value, isinstance(value, int))
        case Dice(index):
            lo, hi = terms[index]
            return Span(lo, hi, True)
        case Neg(arg):
            a = span(arg, terms, memo)
            return Span(-a.hi, -a.lo, a.whole)
        case Op(op, left, right, at):
            return _binary(op, span(left, terms, memo), span(right, terms, memo), at, right)
        case Call(name, args, at):
            spans = [span(arg, terms, memo) for arg in args]
            if len(spans) == 2:
                return _binary(name, spans[0], spans[1], at, args[1])
            a = spans[0]
            if name == "abs":
                low = 0 if a.lo <= 0 <= a.hi else min(_abs(a.lo), _abs(a.hi))
                return Span(low, max(_abs(a.lo), _abs(a.hi)), a.whole)
            if name == "sign":
                return Span(_sign(a.lo), _sign(a.hi), True)
            f = UNARY[name]
            return Span(f(a.lo), f(a.hi), True)
        case Group(parts, at):
            spans = [span(part, terms, memo) for part in parts]
            if not all(part.whole for part in spans):
                raise MathError(at, "a group's sub-rolls total whole numbers")
            if node.success is not None:
                return Span(-len(parts) if node.failure is not None else 0, len(parts), True)
            lo, hi = node.picks.kept(len(parts))
            kept = hi - lo
            lows = sorted(part.lo for part in spans)
            highs = sorted(part.hi for part in spans)
            # any ``kept`` of the totals add up to at least the least ``kept`` lows, at most
            # the most ``kept`` highs
            return Span(sum(lows[:kept], 0), sum(highs[len(highs) - kept :], 0), True)
    raise AssertionError(node)


def _binary(op: str, a: Span, b: Span, at: int, right: Expr) -> Span:
    whole = a.whole and b.whole
    if op in ("+", "-", "*"):
        f = BINARY[op]
        corners = [f(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        return Span(min(corners), max(corners), whole)
    if op in ("max", "min"):
        f = BINARY[op]
        return Span(f(a.lo, b.lo), f(a.hi, b.hi), whole)
    if op in ("/", "%"):
        if b.lo <= 0 <= b.hi:
            raise MathError(at, f"it could {'divide' if op == '/' else 'take a remainder'} by 0")
        if op == "/":
            corners = [_divide(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
            return Span(min(corners), max(corners), False)
        most = max(_abs(b.lo), _abs(b.hi))  # the remainder takes the divisor's sign
        return Span(-most if b.lo < 0 else 0, most if b.hi > 0 else 0, whole)
    # a power: a whole exponent from 0 to MAX_EXPONENT
    if not b.whole or b.lo < 0 or b.hi > MAX_EXPONENT:
        raise MathError(at, f"an exponent is a whole number from 0 to {MAX_EXPONENT}")
    exponents = {int(b.lo), int(b.hi), max(int(b.lo), int(b.hi) - 1)}
    values = [x**e for x in (a.lo, a.hi) for e in exponents]
    if a.lo <= 0 <= a.hi:
        values.append(0)
    if b.lo == 0:
        values.append(1)
    for value in values:
        if _abs(value) > MAX_VALUE:
            raise MathError(at, f"a value could pass {MAX_VALUE:,} either way")
    return Span(min(values), max(values), a.whole)


def written(node: Expr, dice: Callable[[int], str], parent: int = 0, right: bool = False) -> str:
    """``node`` written back, with the parentheses its order needs."""
    match node:
        case Num():
            return str(node)
        case Dice(index):
            return dice(index)
        case Neg(arg):
            return "-" + written(arg, dice, 4)
        case Call(name, args, _):
            return f"{name}({', '.join(written(arg, dice) for arg in args)})"
        case Group(parts):
            return "{" + ", ".join(written(part, dice) for part in parts) + "}" + node.modifiers()
        case Op(op, left, right_node, _):
            mine = OPERATORS[op]
            text = (
                f"{written(left, dice, mine, op == '^')}{op}"
                f"{written(right_node, dice, mine, op != '^')}"
            )
            needs = mine < parent or (mine == parent and right)
            return f"({text})" if needs else text
    raise AssertionError(node)
