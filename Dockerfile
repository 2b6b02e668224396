# Fire Control: the service under gunicorn, configured by deploy/gunicorn.conf.py.
#   docker build -t fire-control .
#   docker run --rm -p 8080:8080 --read-only --tmpfs /tmp fire-control
# Runtime dependencies come from requirements/runtime.lock (`make lock-runtime`): no test
# tools, no compilers (wheels only) in the image.
# gunicorn's sync workers need a buffering proxy in front (two slow clients hold both
# workers): on Kubernetes the nginx sidecar of deploy/k8s/base (nginx.conf), elsewhere the
# same config or another proxy that reads whole requests. Only that proxy should reach its
# port (the run above is for trying it out on one machine).

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
COPY requirements/runtime.lock /tmp/runtime.lock
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir --only-binary=:all: --requirement /tmp/runtime.lock \
    && /opt/venv/bin/pip uninstall --yes pip
WORKDIR /app
COPY service/ service/
COPY deploy/gunicorn.conf.py deploy/gunicorn.conf.py
# Compile once here: the running container never writes bytecode (read-only root).
RUN /opt/venv/bin/python -m compileall -q /opt/venv/lib /app

FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="fire-control" \
      org.opencontainers.image.description="Rules-resolution service for naval wargames"
RUN groupadd --system --gid 10001 firecontrol \
    && useradd --system --uid 10001 --gid firecontrol --no-create-home \
       --home-dir /nonexistent --shell /usr/sbin/nologin firecontrol
# Code and dependencies belong to root and are read-only to the service's user; the only
# writable place it needs is /tmp: the metrics folder, and the signing and sealing keys it
# makes on first start when none are given (a single container; in Kubernetes they come
# from a Secret, see deploy/README.md).
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
WORKDIR /app
ENV PATH="/opt/venv/bin:${PATH}" \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PORT=8080 \
    WEB_CONCURRENCY=2 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/metrics \
    FIRECONTROL_DATA_DIR=/tmp/fire-control
USER 10001:10001
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8080'), timeout=2)"]
ENTRYPOINT ["gunicorn", "-c", "deploy/gunicorn.conf.py"]
