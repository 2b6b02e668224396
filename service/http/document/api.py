"""The app's OpenAPI document: the ``Api`` that collects it, with the way this service's
own fields are written into it (strict numbers as numbers, one-of and const members, named
components, nulls as one of two)."""

from __future__ import annotations

from flask import Flask

from ..fast.api import Api
from .components import component_to_property, nullable_as_one_of
from .fields import StrictBoolean, StrictInteger, const_to_property, one_of_to_property


def documented(app: Flask) -> Api:
    """The ``Api`` of ``app``, its document written the service's way."""
    api = Api(app)
    api.register_field(StrictInteger, "integer", None)
    api.register_field(StrictBoolean, "boolean", None)
    converter = api.ma_plugin.converter
    for documents in (one_of_to_property, const_to_property, component_to_property):
        converter.add_attribute_function(documents)
    converter.add_attribute_function(nullable_as_one_of)  # last: it reads what the others wrote
    return api
