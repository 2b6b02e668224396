"""The HTTP layer, by concern: each subpackage's ``__init__`` says what it owns.

* ``fast/``: the hot path that stands in for Flask, webargs and marshmallow per request.
* ``document/``: the OpenAPI document's machinery (components, derived schemas, fields).
* ``endpoints/``: the endpoints and the schemas they share.
* ``middleware/``: what wraps every request (request id, budget, metrics, CORS).
* ``signing/``: keys, signing every answer, Prefer, the public key set.
* ``pictures/``: the SVG pictures of the odds and the heat map.

``components.py``, ``contract.py``, ``derive.py``, ``fields.py``, ``ship_reference.py`` and
``steps.py`` here only re-export what the rulesets' api.py import by these paths.
"""
