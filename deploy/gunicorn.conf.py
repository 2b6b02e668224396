"""gunicorn settings: `gunicorn -c deploy/gunicorn.conf.py` serves service:create_app()."""

import os

wsgi_app = "service:create_app()"
bind = f"0.0.0.0:{os.environ.get('PORT', '8080')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "sync"
timeout = 30
graceful_timeout = 20
control_socket_disable = True
