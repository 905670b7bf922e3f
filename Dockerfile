# syntax=docker/dockerfile:1
# Three stages: `build` compiles with every dependency, `deps` installs the production ones alone
# (nothing of `build` leaks into them), the runtime copies the two results. scripts/image-check.sh
# repeats these steps in a temporary directory where there is no Docker daemon; keep them in step.
# Node 24, the line package.json's engines and .nvmrc name; .npmrc carries the install-script policy.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:24-bookworm-slim
WORKDIR /app
# The code belongs to root and is only read; the one place the service writes is /data, which
# belongs to its user `node`. A named volume mounted there starts as a copy of this directory, owner
# included, so the embedded database works with no settings at all.
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/dist ./dist
# The operators' console: static files the service serves at /console/ (src/console-pages/).
COPY --from=build /app/console/dist ./console/dist
# No NODE_ENV=production here: production makes DEVICE_TOKEN_SECRET mandatory, and the image must
# start with nothing set. A deployment sets NODE_ENV=production with its secret (README, "Image").
# LOG_PRETTY=false: the pretty printer is a development package, absent here, even on a terminal.
# MALLOC_*_THRESHOLD_: as in `npm run start:prod`; fixed at 4 MB, glibc gives freed memory back
# instead of raising its thresholds (to 32/64 MB an arena) as V8 frees large compiler zones (the
# embedded database's WebAssembly compile): idle on the embedded default ~215 MB instead of ~280.
# image-check: ENV
ENV HOST=0.0.0.0 PORT=3000 PGLITE_DATA_DIR=/data/pglite LOG_PRETTY=false MALLOC_TRIM_THRESHOLD_=4194304 MALLOC_MMAP_THRESHOLD_=4194304
VOLUME /data
USER node
EXPOSE 3000
# image-check: HEALTHCHECK
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The V8 flags of `npm run start:prod` (package.json), which the bench uses too: a smaller young
# generation and old-space limit keep resident memory near 120 MB under load instead of ~220 MB;
# no allocation-site pretenuring, or V8 moves request-scoped objects straight to the old generation
# (docs/operations.md).
# image-check: CMD
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=4", "--no-allocation-site-pretenuring", "dist/main.js"]
