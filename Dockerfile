# syntax=docker/dockerfile:1
# Cabin's production image (docs/scale-out.md "The container image"). Its steps run
# the set-up scripts `npm start` runs (scripts/setup/prepare.mjs and the steps it
# calls), so the unit test tests/unit/deploy-dockerfile.test.ts and every `npm start`
# exercise the same code. Stages:
#   build     npm dependencies, database client, production build: `prepare` as the
#             non-root user `node`, so it skips Chromium and the desktop image (root steps)
#   system    the built app and Chromium (scripts/setup/chromium.ts, apt-get as root)
#   desktops  + the host tools desktops use; runs as root in a privileged container
#   runtime   the default target: runs as `node` (uid 1000); browsers and models, no desktops
# Both run `node scripts/start.mjs` (npm start): migrations, a build check, then the
# server; SIGTERM is passed to the server, which drains before it exits.
#   docker build -t cabin .                                  # runtime (non-root)
#   docker build --target desktops -t cabin:desktops .       # with desktops (root)

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source when npm installs it.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
RUN chown node:node /app
USER node
COPY --chown=node:node . .
# No database at build time: migrations run when a node starts (scripts/start.mjs).
RUN node --input-type=module -e "const { prepare } = await import('./scripts/setup/prepare.mjs'); await prepare({ migrate: false })"

FROM ${NODE_IMAGE} AS system
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/cabin
WORKDIR /app
COPY --from=build --chown=node:node /app /app
# Chromium for browser sessions: the set-up step `npm start` runs, here as root so it installs it.
RUN node --import tsx scripts/setup/chromium.ts \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/cabin \
 && chown node:node /var/lib/cabin
EXPOSE 3000
CMD ["node", "scripts/start.mjs"]

FROM system AS desktops
# The host tools of desktop sessions (HOST_PACKAGES in scripts/setup/desktop-image.mjs,
# which the set-up would otherwise install at start), and mmdebstrap, with which a
# node builds the desktop base image on its volume at first start (in the background).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg x11vnc slirp4netns nftables mmdebstrap util-linux zstd perl-base tar \
 && rm -rf /var/lib/apt/lists/*
ENV DESKTOP_IMAGES_DIR=/var/lib/cabin/desktop-images
USER root

FROM system AS runtime
USER node
