"""What wraps every request, whatever answers it: WSGI wrappers and Flask hooks.

``request_id.py`` (X-Request-Id, and when the request came in), ``budget.py`` (each
request's work budget), ``metrics.py`` (Prometheus) and ``cors.py`` (the one CORS policy).
"""
