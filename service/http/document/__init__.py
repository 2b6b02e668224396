"""The OpenAPI document's machinery: named components, schemas derived from typed results.

``components.py`` (one named component per concept), ``derive.py`` (a result's schema from
its TypedDict), ``fields.py`` (fields that keep the document and the validation in
agreement) and ``shapes.py`` (JSON Schemas of fixed data: tables, ship listings).
"""
