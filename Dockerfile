# Corto: the production build only, on the official Node image, run as the non-root `node` user.
#   docker build -t corto .        (or podman build --format docker -t corto .: podman's default OCI
#                                   format has no HEALTHCHECK and would drop it)
#   docker run -p 3000:3000 -v corto-data:/data corto
# The current Node LTS, pinned to a release (package.json's engines says what is tested).
ARG NODE_IMAGE=node:24.11.1-bookworm-slim

# 1. Build: the web app and the bundled server, then drop the development packages.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary matches.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# 2. Run: node_modules (production only), dist/ and package.json; nothing else of the sources. They
#    stay root's: the `node` user reads the code but cannot rewrite it; it writes only in /data.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# `corto <command>` in the container (docker compose exec corto1 corto backup ...): the bundled CLI,
# which needs no development tool.
RUN mkdir -p /data && chown node:node /data \
 && printf '#!/bin/sh\nexec node /app/dist/server/corto.js "$@"\n' > /usr/local/bin/corto \
 && chmod 755 /usr/local/bin/corto
USER node
# The SQLite database and stored files in the embedded mode (with DATABASE_URL and S3_* set, it stays empty).
VOLUME ["/data"]
EXPOSE 3000
# Liveness, not readiness: an instance whose database is away still serves its cached redirects.
# bash's /dev/tcp rather than `node -e fetch(...)`: no 40 MB Node process started every 10 s
# (and no curl to add to the image). Exit 0 only on "HTTP/1.1 200".
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-3000} && printf 'GET /api/health HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && read -r -t 2 _ status _ <&3 && [ \"$status\" = 200 ]"]
# SIGTERM drains requests and writes queued clicks before exiting.
STOPSIGNAL SIGTERM
# node itself, with `npm start`'s flags (container.test.ts holds them equal).
CMD ["node", "dist/server/main.js"]
