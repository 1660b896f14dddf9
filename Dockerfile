# One image for every component: the webhook (`python -m webhook`), the scorer (`python -m scorer`),
# the certificate tool (`python -m certs`, used by the Helm chart's certificate Job) and the `semaff`
# command line.
#
#   docker build -t semantic-affinity:0.1.0 .
#
# Runs as the unprivileged user 65532 and works on a read-only root filesystem (the chart mounts
# an emptyDir on /tmp): bytecode is compiled at build time, nothing is written at run time.

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY shared ./shared
COPY observability ./observability
COPY webhook ./webhook
COPY scorer ./scorer
COPY semaff ./semaff
COPY certs ./certs
COPY nodeagent ./nodeagent
# Wheels only: every dependency ships manylinux wheels, so no compiler is needed.
RUN pip install --no-cache-dir --only-binary=:all: --prefix=/install . \
 && python -m compileall -q /install

FROM python:3.11-slim
COPY --from=build /install /usr/local
RUN groupadd --gid 65532 semaff \
 && useradd --uid 65532 --gid 65532 --home-dir /tmp --no-create-home --shell /usr/sbin/nologin semaff
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HOME=/tmp
USER 65532:65532
WORKDIR /tmp
EXPOSE 8443 8888
# The chart sets the command per container; the default starts the webhook.
CMD ["python", "-m", "webhook"]
