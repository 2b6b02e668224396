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
  A request's member of that form is refused unless it matches, in the words of the form's
  ``invalid`` where it has them (the engine may hold it as another value: ``Via``).
* ``Check``: a test a member's value must pass that no limit states (a request's field).
* ``JsonOf``: an answer's member that is the JSON of a shape (engine/shape.py), of one of
  several (``others``), or of a shape only ever written (``written``).
* ``Named``: a string of a kind the HTTP layer defines, documents and checks itself, by
  its component's name (the ids of the rulesets an app serves, which no fixed set lists).

Both are plain data: the engine imports no HTTP code.
"""

from __future__ import annotations

import importlib
import typing
from collections.abc import Callable, Collection, Mapping
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
    """A member's description and, if it has one, its example."""

    description: str | None = None
    example: Any = None


@dataclass(frozen=True)
class Pattern:
    """Marks an ``Annotated[str, Pattern(...)]`` as a string matching ``pattern``, the
    component ``name``. ``invalid``: what a request is told of a value not of the form
    (a request's member of the form is checked against it; an answer's is not)."""

    name: str
    pattern: str
    description: str
    example: str | None = None
    invalid: str | None = None


@dataclass(frozen=True)
class Limits:
    """What a member's value must look like beyond its type, stated in place: a string's
    ``pattern`` (and the ``error`` a value that misses it is told); a number's ``minimum``
    and ``maximum``; a string's or a list's exact
    ``length``, or its ``least`` and ``most``."""

    pattern: str | None = None
    length: int | None = None
    minimum: float | None = None
    maximum: float | None = None
    least: int | None = None
    most: int | None = None
    # What a request whose value misses ``pattern`` is told, where not the usual words.
    error: str | None = None


@dataclass(frozen=True)
class Named:
    """Marks an ``Annotated[str, Named("RulesetId")]`` as a string whose field (its
    component and its check) the HTTP layer makes, registered by that name
    (derive.py, ``named_field``)."""

    name: str


@dataclass(frozen=True)
class Key:
    """A member whose JSON name is not its attribute's (``class``, a Python keyword)."""

    name: str


@dataclass(frozen=True)
class Via:
    """A member the engine holds as one value and JSON carries as another: ``json`` is the
    JSON type (a fixed set, say), ``parse`` makes the engine's value of it and ``show``
    writes it back. ``Annotated[ShipClass, Via(FleetActionShipClass, SHIP_CLASSES.get,
    attrgetter("name"))]`` is a ship class row, sent and answered by its name."""

    json: Any
    parse: Callable[[Any], Any]
    show: Callable[[Any], Any]


@dataclass(frozen=True)
class Hits:
    """A result's member that counts hits dealt (of a ``kind``, "flotation", or of any):
    a picture sums them into "3 hits (2 flotation, 1 turret)" and asks the chance of any."""

    kind: str = ""


@dataclass(frozen=True)
class Landed:
    """A result's yes-or-no member that says whether a shot hit: a picture reads an outcome
    with nothing else to say, and this false, as "Miss"."""


@dataclass(frozen=True)
class Headline:
    """A result's member that names the outcome ("Straddle", "Rudder repaired"): a picture
    says it first, as the outcome's name."""


@dataclass(frozen=True)
class Omitted:
    """A shape's member that may be left out but is never null: its default, None, is
    written by leaving it out."""


@dataclass(frozen=True)
class JsonOf:
    """An answer's member that is the JSON of a shape (a dataclass, shape.py):
    ``Annotated[JsonObject, JsonOf(f"{__package__}.turn.TurnState")]`` is what ``to_json``
    writes of a ``TurnState``, documented as the one component the request that takes it
    back reads. The shape is named by its module and name, as the result types are defined
    before the shapes that use them."""

    shape: str
    # More shapes it may be the JSON of instead (documented ``oneOf`` them all): the dice
    # a later request sends again, seeded or sealed.
    others: tuple[str, ...] = ()
    # A shape no request reads, only written (a ruling in the catalog): documented as what
    # ``to_json`` writes, every member there (an ``Omitted`` one aside), defaults or not.
    written: bool = False

    def resolve(self) -> type:
        return _resolve(self.shape)

    def resolve_all(self) -> tuple[type, ...]:
        return tuple(_resolve(name) for name in (self.shape, *self.others))


def _resolve(dotted: str) -> type:
    module, _, name = dotted.rpartition(".")
    found = getattr(importlib.import_module(module), name)
    assert isinstance(found, type)
    return found


@dataclass(frozen=True)
class Check:
    """A test a member's value must pass beyond its type and ``Limits`` (``test`` true),
    with the ``message`` of a value that fails it: a seed must be Unicode text."""

    test: Callable[[Any], bool]
    message: str


JsonObject = dict[str, Any]


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
