"""JSON Schemas of fixed data (a ruleset's tables and ship listings), worked out from the data.

The tables and ship listings are constants the engine resolves with; their schema is the
exact shape of that data (every member typed and required where every item has it), so
it cannot drift from what GET /tables and GET /ships answer. Members that name a concept
with a component of its own (``refs``: member name -> component) refer to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .components import ref

_SCALARS: tuple[tuple[type, str], ...] = (
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
)


EMPTY_LIST: dict[str, Any] = {"type": "array", "items": {}, "maxItems": 0}


def shape_of(value: Any, refs: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The JSON Schema of ``value``; ``refs`` names members documented as components."""
    refs = refs or {}
    if value is None:
        return {"type": "null"}
    for kind, name in _SCALARS:
        if isinstance(value, kind):
            return {"type": name}
    if isinstance(value, Mapping):
        return {
            "type": "object",
            "properties": {
                str(key): ref(refs[key]) if key in refs else shape_of(item, refs)
                for key, item in value.items()
            },
            "required": [str(key) for key in value],
            "additionalProperties": False,
        }
    if isinstance(value, Sequence):
        if not value:  # nothing to type its items by: an empty list, and only that
            return dict(EMPTY_LIST)
        return {"type": "array", "items": merged([shape_of(item, refs) for item in value])}
    raise TypeError(f"no JSON shape for {type(value).__name__}")


def merged(shapes: list[dict[str, Any]]) -> dict[str, Any]:
    """One schema that every one of ``shapes`` satisfies, as tight as it can say."""
    distinct: list[dict[str, Any]] = []
    for shape in shapes:
        if shape not in distinct:
            distinct.append(shape)
    if len(distinct) == 1:
        return distinct[0]
    if all(shape.get("type") == "object" for shape in distinct):
        names = list(dict.fromkeys(name for shape in distinct for name in shape["properties"]))
        return {
            "type": "object",
            "properties": {
                name: merged(
                    [shape["properties"][name] for shape in distinct if name in shape["properties"]]
                )
                for name in names
            },
            "required": [name for name in names if all(name in s["required"] for s in distinct)],
            "additionalProperties": False,
        }
    if all(shape.get("type") == "array" for shape in distinct):
        items = [shape["items"] for shape in distinct if shape != EMPTY_LIST]
        return {"type": "array", "items": merged(items)}
    if all(set(shape) == {"type"} and isinstance(shape["type"], str) for shape in distinct):
        kinds = [shape["type"] for shape in distinct]
        if set(kinds) == {"integer", "number"}:
            return {"type": "number"}
        if "number" in kinds and "integer" in kinds:
            kinds.remove("integer")
        return {"type": kinds}
    nullable = [shape for shape in distinct if shape != {"type": "null"}]
    if len(nullable) == 1:
        return {"oneOf": [nullable[0], {"type": "null"}]}
    return {"anyOf": distinct}
