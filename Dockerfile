# One image for every role of the call center; the command picks the role:
#   callcenter worker start      LiveKit agent worker (default)
#   callcenter temporal-worker   Temporal worker
#   callcenter console           operators' web console
# Build:  docker build -t callcenter:0.1.0 .
# Runs as uid/gid 10001 and works with a read-only root filesystem: it writes only to
# $CALLCENTER_DATA_DIR (/data) and /tmp, which Kubernetes mounts as emptyDir volumes.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# ---- build: install the package and its dependencies into a virtualenv ----------------
# Only /opt/venv leaves this stage: the source tree, pip, its cache and any build
# dependencies stay behind. No compiler is needed: every dependency is a binary wheel.
FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY callcenter ./callcenter
COPY workflows ./workflows
COPY console ./console
COPY domains ./domains
COPY meta ./meta
# --without-pip: the image never installs at run time, so neither pip nor setuptools goes
# into the venv (the stage's own pip installs into it). Bytecode is compiled here because
# the root filesystem is read-only at run time. [voice]: the worker's default speech
# (offline engines, models inside the wheels); [openai]: the chart's hosted-LLM option;
# [console]: the operators' web console (`callcenter console`); [postgres]: psycopg for
# the chart's shared database (CALLCENTER_DATABASE_URL).
RUN python -m venv --without-pip /opt/venv \
 && pip --python /opt/venv/bin/python install ".[openai,console,voice,postgres]" \
 && /opt/venv/bin/callcenter --help > /dev/null

# ---- runtime: the slim base, one user, the venv; nothing else ------------------------
FROM ${PYTHON_IMAGE}
RUN groupadd --system --gid 10001 callcenter \
 && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin callcenter \
 && mkdir -p /app /data \
 && chown 10001:10001 /data
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    XDG_CACHE_HOME=/tmp/.cache \
    CALLCENTER_DATA_DIR=/data
WORKDIR /app
USER 10001:10001
# 8081 LiveKit worker health, 9100 agent /metrics, 9101 Temporal worker /metrics /healthz
# /readyz, 9102 Temporal SDK metrics, 8080 the operators' console.
EXPOSE 8080 8081 9100 9101 9102
ENTRYPOINT ["callcenter"]
CMD ["worker", "start"]
