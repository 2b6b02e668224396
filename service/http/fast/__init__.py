"""The hot path: what stands in for Flask, webargs and marshmallow on every request.

``api.py`` (flask-smorest's Api speaking problem details, and ``plainly``, which serves a
view without its decorators' wrappers), ``loading.py`` (a request schema's load, planned
once), ``jsonbody.py`` (the one I-JSON body reader, and the hook every POST body passes),
``context.py`` (the request and app taken from Flask's context once), ``answers.py`` (JSON
answer bytes) and ``problems.py`` (RFC 9457 problem details).
"""
