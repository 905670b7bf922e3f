#!/usr/bin/env bash
# Starts dist/main.js on a new embedded data directory, checks /health, stops it, adds an
# organization with the CLI, starts again and checks the row is still there.
set -euo pipefail
DIR=$(mktemp -d)
# A port free now, not a fixed one: CI runs other tiers beside this, which bind ports of their own.
PORT=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
export PGLITE_DATA_DIR="$DIR/pglite" PORT LOG_LEVEL=warn DATABASE_URL=
PID=

start() {
  node dist/main.js > "$DIR/server.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 60); do
    if curl -fs "http://127.0.0.1:$PORT/health" | grep -q '"database":"up"'; then return; fi
    sleep 0.5
  done
  cat "$DIR/server.log"; echo "server did not become healthy" >&2; exit 1
}
stop() { kill -TERM "$PID"; wait "$PID" || true; }
trap 'kill "$PID" 2>/dev/null || true; rm -rf "$DIR"' EXIT

start
echo "healthy on a new data directory"
stop
ORG=$(node dist/cli.js org:create --name "Smoke Org")
echo "created $ORG"
ORG_ID=$(node -e 'console.log(JSON.parse(process.argv[1]).id)' "$ORG")
start
echo "healthy again after a restart"
stop
node -e '
  const { PGlite } = require("@electric-sql/pglite");
  PGlite.create(process.argv[1]).then(async (db) => {
    const r = await db.query("select name from organizations where id = $1", [process.argv[2]]);
    await db.close();
    if (r.rows.length !== 1) { console.error("the organization did not survive a restart"); process.exit(1); }
    console.log("organization survived the restart");
  });
' "$PGLITE_DATA_DIR" "$ORG_ID"
