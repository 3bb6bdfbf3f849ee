# syntax=docker/dockerfile:1
# The image behind action.yml (ghcr.io/mcptrustchecker/mcptrustchecker), built and
# pushed by .github/workflows/release.yml so users never compile Rust in their jobs.
#
# GitHub's rules for container actions: no USER (the action runs as root so it can
# read the mounted workspace), no WORKDIR (GitHub mounts the workspace and makes it
# the working directory), and an exec-form ENTRYPOINT with an absolute path.
#
# Base images are pinned by digest. They are build arguments only so
# scripts/image-test.sh can substitute bases built locally from Debian packages
# where no registry is reachable; the published image always uses these defaults.
# Dependabot does not read ARG defaults (dependabot-core#2057), so bump both
# digests by hand (docker buildx imagetools inspect IMAGE:TAG) when the bases move.
#
# The image carries no Node or Python: the action's default mode is static, and
# `live: true` reaches remote servers; npx/uvx stdio servers need a fuller runner.

ARG BUILD_BASE=rust:1.95-slim-bookworm@sha256:d7482085ff5b415f84dba5647ae71606650bdef00db7aeb69f4b3d170c3e4082
ARG RUNTIME_BASE=debian:bookworm-slim@sha256:7b140f374b289a7c2befc338f42ebe6441b7ea838a042bbd5acbfca6ec875818

FROM ${BUILD_BASE} AS build
ENV CARGO_TARGET_DIR=/build/target \
    CARGO_TERM_COLOR=never
COPY Cargo.toml Cargo.lock /build/src/
COPY build.rs /build/src/
COPY src /build/src/src
COPY benches /build/src/benches
RUN cargo build --release --locked --manifest-path /build/src/Cargo.toml --bin mcptrustchecker \
 && install -m 0755 /build/target/release/mcptrustchecker /usr/local/bin/mcptrustchecker \
 && /usr/local/bin/mcptrustchecker --version

FROM ${RUNTIME_BASE}
LABEL org.opencontainers.image.title="mcptrustchecker" \
      org.opencontainers.image.description="Deterministic security scanner and CI gate for MCP servers" \
      org.opencontainers.image.source="https://github.com/mcptrustchecker/mcptrustchecker"
# git: the changed files of a pull request; ca-certificates: the GitHub API over TLS.
# Versions float within the pinned Debian release so security updates apply.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/mcptrustchecker /usr/local/bin/mcptrustchecker
ENTRYPOINT ["/usr/local/bin/mcptrustchecker"]
CMD ["ci"]
