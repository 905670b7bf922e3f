#!/usr/bin/env bash
# The image's steps without Docker (there is no daemon on the CI machines): what the Dockerfile
# does, in a temporary directory. Keep the two in step.
#   build stage   a copy of the build context (.dockerignore applied), `npm ci`, `npm run build`
#   deps stage    package.json + package-lock.json + .npmrc alone, `npm ci --omit=dev`
#   runtime       node_modules of deps + dist + console/dist + package.json in a root-owned directory; a data
#                 directory owned by the user the service runs as (`nobody` when run as root)
# Then, with only the Dockerfile's ENV (read from it) and nothing else: start, HEALTHCHECK's own
# command, /health, CLI commands, stop with SIGTERM (exit status 0 expected); the same on
# DATABASE_URL when --postgres is given. Prints the production node_modules size.
#
#   scripts/image-check.sh [--reuse-build] [--postgres postgres://user@host:5432/postgres]
#   --reuse-build   skip the build stage and use ./dist (CI: after `npm run build`)
#   --postgres URL  a server to also run on: a new, empty database on it, dropped at the end
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# The image runs Node 24: so does this check, with the project's own binary (devDependency `node`).
PATH="$ROOT/node_modules/.bin:$PATH"
REUSE_BUILD=false
SERVER=
while [ $# -gt 0 ]; do
  case "$1" in
    --reuse-build) REUSE_BUILD=true ;;
    --postgres) SERVER=${2:?--postgres needs a URL}; shift ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

STARTED=$(date +%s)
WORK=$(mktemp -d /tmp/image-check.XXXXXX)
chmod 0755 "$WORK"
PID=
DB_NAME="image_check_$$"
cleanup() {
  if [ -n "$PID" ]; then kill -KILL "$PID" 2>/dev/null || true; fi
  if [ -n "$SERVER" ]; then psql "$SERVER" -qc "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
step() { printf '\n=== %s ===\n' "$*"; }
fail() { echo "FAIL: $*" >&2; [ -f "$WORK/server.log" ] && tail -20 "$WORK/server.log" >&2; exit 1; }

# The user the service runs as: the image's is `node`; here `nobody` when we are root.
if [ "$(id -u)" = 0 ]; then
  RUN_UID=65534
  AS_USER=(setpriv --reuid="$RUN_UID" --regid="$RUN_UID" --clear-groups --)
else
  RUN_UID=$(id -u)
  AS_USER=()
  echo "not root: the service runs as $(id -un); the non-root checks are weaker" >&2
fi

step "build stage"
if $REUSE_BUILD; then
  [ -f "$ROOT/dist/main.js" ] && [ -f "$ROOT/dist/cli.js" ] || fail "--reuse-build: run npm run build first"
  BUILD_DIST="$ROOT/dist"
  echo "reusing $BUILD_DIST"
else
  mkdir "$WORK/build"
  # The build context: `COPY . .` minus .dockerignore (its entries are paths from the root).
  rsync -a --exclude-from=<(grep -v '^\s*\(#\|$\)' "$ROOT/.dockerignore" | sed 's#^/*#/#') \
    "$ROOT/" "$WORK/build/"
  (cd "$WORK/build" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error && npm run --silent build)
  BUILD_DIST="$WORK/build/dist"
fi

step "deps stage: npm ci --omit=dev"
mkdir "$WORK/deps"
cp "$ROOT/package.json" "$ROOT/package-lock.json" "$ROOT/.npmrc" "$WORK/deps/"
(cd "$WORK/deps" && npm ci --omit=dev --no-audit --no-fund --prefer-offline --loglevel=error)

step "runtime"
APP="$WORK/app"
DATA="$WORK/data"
mkdir "$APP"
mv "$WORK/deps/node_modules" "$APP/node_modules"
cp "$ROOT/package.json" "$APP/"
cp -r "$BUILD_DIST" "$APP/dist"
# The operators' console, built beside dist/ (the Dockerfile's second COPY from the build stage).
mkdir -p "$APP/console"
cp -r "$(dirname "$BUILD_DIST")/console/dist" "$APP/console/dist"
chown -R 0:0 "$APP" 2>/dev/null || true
mkdir -m 0700 "$DATA"
chown "$RUN_UID:$RUN_UID" "$DATA" 2>/dev/null || true
PROD_MB=$(du -sm "$APP/node_modules" | cut -f1)
DEV_MB=$(du -sm "$ROOT/node_modules" | cut -f1)
echo "production node_modules: ${PROD_MB} MB (development checkout: ${DEV_MB} MB); dist: $(du -sm "$APP/dist" | cut -f1) MB"
if "${AS_USER[@]}" touch "$APP/written" 2>/dev/null; then fail "the service's user can write its code"; fi

# The Dockerfile's ENV line, /data standing for our data directory, on a free port.
ENV_LINE=$(grep -A1 '^# image-check: ENV' "$ROOT/Dockerfile" | tail -1 | sed 's/^ENV //')
PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
read -r -a IMAGE_ENV <<< "$(echo "$ENV_LINE" | sed "s#/data#$DATA#g; s#PORT=[0-9]*#PORT=$PORT#")"
HEALTHCHECK=$(grep -A2 '^# image-check: HEALTHCHECK' "$ROOT/Dockerfile" | grep -o 'CMD .*' | sed 's/^CMD //')
# The Dockerfile's CMD (exec form), as words: node, its flags, dist/main.js.
CMD_LINE=$(grep -A1 '^# image-check: CMD' "$ROOT/Dockerfile" | tail -1)
read -r -a IMAGE_CMD <<< "$(echo "$CMD_LINE" | sed 's/^CMD \[//; s/\]$//; s/[",]/ /g')"
[ "${IMAGE_CMD[0]:-}" = node ] && [ "${IMAGE_CMD[-1]}" = dist/main.js ] || fail "CMD not read: $CMD_LINE"
echo "image environment: ${IMAGE_ENV[*]}"
echo "image command: ${IMAGE_CMD[*]}"
# package.json's start:prod starts the service as the image does: its variables are in the ENV
# line, its node flags are the CMD's (bench/service-env.ts reads start:prod for the bench).
read -r -a START_PROD <<< "$(node -p 'require(process.argv[1]).scripts["start:prod"]' "$ROOT/package.json")"
PROD_FLAGS=()
for word in "${START_PROD[@]}"; do
  case "$word" in
    node | dist/main.js) ;;
    [A-Z_]*=*) [[ " $ENV_LINE " == *" $word "* ]] || fail "start:prod's $word is not in the Dockerfile's ENV" ;;
    *) PROD_FLAGS+=("$word") ;;
  esac
done
[ "${PROD_FLAGS[*]}" = "${IMAGE_CMD[*]:1:${#IMAGE_CMD[@]}-2}" ] ||
  fail "start:prod's node flags (${PROD_FLAGS[*]}) are not the CMD's (${IMAGE_CMD[*]})"

# Runs as the service's user in the image's environment plus the given settings, from /app.
in_image() { (cd "$APP" && exec "${AS_USER[@]}" env -i PATH="$PATH" "${IMAGE_ENV[@]}" "$@"); }

start() {
  # The image's CMD; the subshell execs, so $! is the node process itself (it gets the SIGTERM).
  (cd "$APP" && exec "${AS_USER[@]}" env -i PATH="$PATH" "${IMAGE_ENV[@]}" "$@" \
    "${IMAGE_CMD[@]}") > "$WORK/server.log" 2>&1 &
  PID=$!
  local t0=$SECONDS
  for _ in $(seq 1 120); do
    if in_image sh -c "$HEALTHCHECK"; then
      echo "healthy after $((SECONDS - t0)) s (the HEALTHCHECK command)"
      curl -fs "http://127.0.0.1:$PORT/health" | grep -q '"database":"up"' || fail "/health: database not up"
      return
    fi
    kill -0 "$PID" 2>/dev/null || fail "the server exited"
    sleep 0.5
  done
  fail "not healthy in 60 s"
}

SIGTERM_FAILURES=()
stop() {
  kill -TERM "$PID"
  local status=0 t0=$SECONDS
  wait "$PID" || status=$?
  PID=
  echo "SIGTERM: exited with status $status after $((SECONDS - t0)) s"
  # Reported at the end, so the other checks still run (docs/operations.md wants 0).
  [ "$status" = 0 ] || SIGTERM_FAILURES+=("$status")
}

cli() {
  local out
  out=$(in_image "$@" node dist/cli.js "${CLI_ARGS[@]}") || fail "cli ${CLI_ARGS[*]}"
  echo "cli ${CLI_ARGS[*]} -> ${out:0:160}"
}

step "no settings: the embedded database in the data directory"
start
curl -fs "http://127.0.0.1:$PORT/console/devices" | grep -q '<div id="root">' || fail "/console/: not the console's page"
stop
[ -d "$DATA/pglite" ] || fail "no embedded data directory in the volume"
CLI_ARGS=(db:migrate); cli
CLI_ARGS=(org:create --name "Image Check"); cli
CLI_ARGS=(org:list); cli
CLI_ARGS=(--help); cli > /dev/null
start
stop

if [ -n "$SERVER" ]; then
  step "DATABASE_URL: a new database on $SERVER"
  psql "$SERVER" -qc "CREATE DATABASE $DB_NAME"
  DATABASE=$(node -e 'const u=new URL(process.argv[1]); u.pathname="/"+process.argv[2]; console.log(u.href)' "$SERVER" "$DB_NAME")
  CLI_ARGS=(db:migrate); cli DATABASE_URL="$DATABASE"
  CLI_ARGS=(org:list --limit 1); cli DATABASE_URL="$DATABASE"
  start DATABASE_URL="$DATABASE"
  stop
fi

step "done in $(($(date +%s) - STARTED)) s"
if [ ${#SIGTERM_FAILURES[@]} -gt 0 ]; then
  fail "exit status ${SIGTERM_FAILURES[*]} after SIGTERM (expected 0)"
fi
echo "image check passed"
