"""A flat record's fields as a dict, the way ``dataclasses.asdict`` gives them, cheaply.

``asdict`` walks every value and deep-copies it, which a ship's state (a handful of
integers and strings) does not need; a turn's answer writes such states a dozen times.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, in their order (worked out once per class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in fields(cls))
    return names


def fields_dict(record: Any) -> dict[str, Any]:
    """``dataclasses.asdict(record)`` for a dataclass whose fields hold only immutable
    plain values (strings, numbers, booleans, None): the same keys in the same order and
    the same values, with no copy made (such values need none)."""
    return {name: getattr(record, name) for name in field_names(type(record))}
