"""A shape: a frozen dataclass that is the one definition of a JSON object the service
reads and writes (a request's inputs, a state a turn hands back and takes again).

Like a chess library's move, which is made from its notation and written back to it, a
shape is the typed value the engine works with, with its printing beside it: ``to_json``
writes it, and the HTTP layer derives from the same fields the schema that reads it
(service/http/document/derive.py, ``shape_schema``) and so its OpenAPI component. Each
member is a dataclass field; what a type alone cannot say rides in ``Annotated``
(typed.py): ``Doc``, ``Limits``, a fixed set's ``Fixed``, ``Key`` (a JSON name that is not
the attribute's) and ``Via`` (a value the engine holds as another type). A field without a
default is required; a default is the value of a member left out. A tuple is a JSON list.

The component is named by the class's ``component`` (a ``ClassVar``), else by the class.
Printing is planned once per class, on its first use.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NotRequired, Required

from .typed import Key, Omitted, Via


@dataclass(frozen=True)
class Member:
    """One member of a shape: its attribute, its JSON name, its type (with its markers)
    and, if it may be left out, its default (``default_factory`` for a list)."""

    attr: str
    key: str
    hint: Any
    required: bool
    default: Any = None
    default_factory: Callable[[], Any] | None = None

    @property
    def via(self) -> Via | None:
        return typing.cast("Via | None", _marker(self.hint, Via))

    @property
    def omitted(self) -> bool:
        """Left out, never null, where it is None."""
        return _marker(self.hint, Omitted) is not None


def is_shape(hint: Any) -> bool:
    return isinstance(hint, type) and dataclasses.is_dataclass(hint)


def component_name(cls: type) -> str:
    return str(getattr(cls, "component", cls.__name__))


_MEMBERS: dict[type, tuple[Member, ...]] = {}


def members(cls: type) -> tuple[Member, ...]:
    """The members of the shape ``cls``, in its fields' order (worked out once)."""
    found = _MEMBERS.get(cls)
    if found is None:
        if not is_shape(cls):
            raise TypeError(f"not a shape (a dataclass): {cls!r}")
        hints = typing.get_type_hints(cls, include_extras=True)
        found_list = []
        for item in dataclasses.fields(cls):
            if not item.init:
                continue
            hint = hints[item.name]
            key = _marker(hint, Key)
            has_default = item.default is not dataclasses.MISSING
            factory = item.default_factory
            found_list.append(
                Member(
                    attr=item.name,
                    key=key.name if key else item.name,
                    hint=hint,
                    required=not has_default and factory is dataclasses.MISSING,
                    default=item.default if has_default else None,
                    default_factory=None if factory is dataclasses.MISSING else factory,
                )
            )
        found = _MEMBERS[cls] = tuple(found_list)
    return found


def _marker(hint: Any, kind: type) -> Any:
    if typing.get_origin(hint) in (NotRequired, Required):
        return _marker(typing.get_args(hint)[0], kind)
    if typing.get_origin(hint) is typing.Annotated:
        for extra in typing.get_args(hint)[1:]:
            if isinstance(extra, kind):
                return extra
    return None


def without_none(hint: Any) -> Any:
    """``hint`` with None taken out of its union (its markers kept)."""
    if typing.get_origin(hint) is typing.Annotated:
        base, *extras = typing.get_args(hint)
        return typing.Annotated[(without_none(base), *extras)]
    options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(options) == 1:
        return options[0]
    return hint


def bare(hint: Any) -> Any:
    """A type without its markers."""
    while typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    return hint


# --- printing ------------------------------------------------------------------------------

Show = Callable[[Any], Any]
_PRINTERS: dict[type, Callable[[Any], dict[str, Any]]] = {}


def to_json(value: Any) -> dict[str, Any]:
    """The JSON object of the shape ``value``, its members in their fields' order."""
    return printer(type(value))(value)


def printer(cls: type) -> Callable[[Any], dict[str, Any]]:
    """``to_json`` for the shape ``cls``, to hold where it runs on every request."""
    found = _PRINTERS.get(cls)
    if found is None:
        found = _PRINTERS[cls] = _printer(cls)
    return found


def _printer(cls: type) -> Callable[[Any], dict[str, Any]]:
    """The printer of ``cls``, written out member by member (as dataclasses write their own
    ``__init__``): it runs on every answer that echoes a shape, so it loops over nothing."""
    scope: dict[str, Any] = {}
    lines = ["def printed(value):", "    out = {}"]
    for index, member in enumerate(members(cls)):
        show = _show(member.hint)
        key = repr(member.key)
        lines.append(f"    item = value.{member.attr}")
        written = "item"
        if show is not None:
            scope[f"show{index}"] = show
            written = f"show{index}(item)"
        if member.omitted:  # left out where it is None
            lines.append(f"    if item is not None: out[{key}] = {written}")
        elif show is not None:
            lines.append(f"    out[{key}] = None if item is None else {written}")
        else:
            lines.append(f"    out[{key}] = item")
    lines.append("    return out")
    return typing.cast(Callable[[Any], dict[str, Any]], _written(lines, scope, "printed"))


def _written(lines: list[str], scope: dict[str, Any], name: str) -> Any:
    exec("\n".join(lines), scope)  # noqa: S102 - code made here from a shape's own fields
    return scope[name]


def _show(hint: Any) -> Show | None:
    """How a member's value is written (None: as it is)."""
    return _conversion(hint, "show")


# --- making --------------------------------------------------------------------------------

Parse = Callable[[Any], Any]
_MAKERS: dict[type, Callable[[dict[str, Any]], Any]] = {}


def make(cls: type, values: dict[str, Any]) -> Any:
    """The shape ``cls`` of its members' validated values, by attribute (what its schema
    loaded): each ``Via`` member parsed, each list a tuple where the field is one."""
    return maker(cls)(values)


def maker(cls: type) -> Callable[[dict[str, Any]], Any]:
    """``make`` for the shape ``cls``, to hold where it runs on every request."""
    found = _MAKERS.get(cls)
    if found is None:
        found = _MAKERS[cls] = _maker(cls)
    return found


def _maker(cls: type) -> Callable[[dict[str, Any]], Any]:
    """The maker of ``cls``, written out member by member (see ``_printer``)."""
    scope: dict[str, Any] = {"cls": cls}
    lines = ["def made(values):"]
    for index, member in enumerate(members(cls)):
        parse = _parse(member.hint)
        if parse is not None:
            scope[f"parse{index}"] = parse
            lines.append(f"    item = values.get({member.attr!r})")
            lines.append(f"    if item is not None: values[{member.attr!r}] = parse{index}(item)")
    lines.append("    return cls(**values)")
    return typing.cast(Callable[[dict[str, Any]], Any], _written(lines, scope, "made"))


def _parse(hint: Any) -> Parse | None:
    """How a member's loaded value becomes the engine's (None: as it is): a nested shape is
    made by its own schema already."""
    return _conversion(hint, "parse")


def _conversion(hint: Any, way: str) -> Callable[[Any], Any] | None:
    """A member's ``Via`` one way (``show`` or ``parse``); otherwise, as it is, save that a
    shape is written by ``to_json`` and a tuple is read from a JSON list and written as
    one, each item converted the same way."""
    via = _marker(hint, Via)
    if via is not None:
        return typing.cast(Callable[[Any], Any], getattr(via, way))
    writing = way == "show"
    hint = bare(hint)
    origin = typing.get_origin(hint)
    options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
    if origin in (typing.Union, types.UnionType):
        if len(options) == 1:
            return _conversion(options[0], way)
        return to_json if writing and all(is_shape(option) for option in options) else None
    if is_shape(hint):
        return to_json if writing else None
    if origin is tuple or (writing and origin is list):
        inner = _conversion(typing.get_args(hint)[0], way)
        collect: Callable[[Any], Any] = list if writing else tuple
        if inner is None:
            return collect
        return lambda items: collect(map(inner, items))
    return None
