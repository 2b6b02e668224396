"""The OpenAPI document's machinery: named components, schemas derived from typed results.

``api.py`` (the app's document and how this service's fields are written into it),
``components.py`` (one named component per concept), ``derive.py`` (a schema from its
TypedDict or its shape), ``fields.py`` (fields that keep the document and the validation in
agreement) and ``shapes.py`` (JSON Schemas of fixed data: tables, ship listings).
"""
