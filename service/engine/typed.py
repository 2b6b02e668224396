"""What a typed result says beyond its types: the names of its fixed sets and its words.

A result shape is defined once, as a TypedDict in its ruleset's ``results.py``; the HTTP
layer derives its schema and its OpenAPI component from it (service/http/document/derive.py). Two
markers, carried in ``Annotated``, say what a type alone cannot:

* ``Fixed``: a ``Literal`` is a named fixed set of strings, documented once as the
  component of that name. ``Ship = Annotated[Literal["Corvette", ...], Fixed("XShip",
  "...")]`` is then the one definition the types, the tables (``table_of``) and the
  document read.
* ``Doc``: a member's description (and example), ``Annotated[int, Doc("Hits saved")]``.
* ``Limits``: a member's pattern or length, stated in place (no component of its own).
* ``Pattern``: a string of a named form (a regular expression), documented once as the
  component of that name, ``Square = Annotated[str, Pattern("XSquare", r"^[A-J]...$", ...)]``.

Both are plain data: the engine imports no HTTP code.
"""

from __future__ import annotations

import typing
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar


@dataclass(frozen=True)
class Fixed:
    """Marks an ``Annotated[Literal[...], Fixed(...)]`` as the fixed set ``name``.

    ``aliases`` (other spellings a player may type, each to its value) are accepted by the
    server and named in the description, never members of the set.
    """

    name: str
    description: str
    aliases: Mapping[str, str] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Doc:
    """A result member's description and, if it has one, its example."""

    description: str
    example: Any = None


@dataclass(frozen=True)
class Pattern:
    """Marks an ``Annotated[str, Pattern(...)]`` as a string matching ``pattern``, the
    component ``name``."""

    name: str
    pattern: str
    description: str
    example: str | None = None


@dataclass(frozen=True)
class Limits:
    """What a member's value must look like beyond its type, stated in place: a string's
    ``pattern``, a list's ``length``."""

    pattern: str | None = None
    length: int | None = None


def pattern_of(alias: Any) -> Pattern:
    """The ``Pattern`` marker of a named string form."""
    if typing.get_origin(alias) is typing.Annotated:
        base, *extras = typing.get_args(alias)
        markers = [extra for extra in extras if isinstance(extra, Pattern)]
        if markers and base is str:
            return markers[0]
    raise TypeError(f"not a named string (Annotated[str, Pattern(...)]): {alias!r}")


def fixed_set(alias: Any) -> tuple[Fixed, tuple[str, ...]]:
    """The ``Fixed`` marker of a fixed-set alias and its values, in their order."""
    if typing.get_origin(alias) is typing.Annotated:
        literal, *extras = typing.get_args(alias)
        markers = [extra for extra in extras if isinstance(extra, Fixed)]
        if markers and typing.get_origin(literal) is Literal:
            return markers[0], tuple(typing.get_args(literal))
    raise TypeError(f"not a fixed set (Annotated[Literal[...], Fixed(...)]): {alias!r}")


def values(alias: Any) -> tuple[str, ...]:
    """The members of a fixed set, in their order."""
    return fixed_set(alias)[1]


Table = TypeVar("Table", bound=Collection[Any])


def table_of(alias: Any, table: Table) -> Table:
    """``table`` (a mapping or a tuple), checked to be keyed by (or to list) exactly the
    fixed set ``alias``, in its order.

    So a table's keys are the fixed set's members, not a second spelling of them: a key
    outside the set, a member the table lacks or another order is refused at import.
    """
    if tuple(table) != values(alias):
        raise ValueError(
            f"{fixed_set(alias)[0].name}: the table is keyed {list(table)}, "
            f"the fixed set is {list(values(alias))}"
        )
    return table
