#!/usr/bin/env bash
# Packs loyalty-chat as npm would publish it, installs the tarball into an empty folder, starts
# `npx loyalty-chat serve` there on a free port and checks that it answers. Exits non-zero on any failure.
#   bash test/pack-smoke.sh            (npm pack runs the prepack build)
#   PACK_PREBUILT=1 bash test/pack-smoke.sh   (packs the dist/ that `npm run build` made, without building again: CI)
#   PACK_TARBALL=x.tgz bash test/pack-smoke.sh   (check an existing tarball instead)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/lc-pack-smoke-XXXXXX")"
SERVER_PID=""

cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        # serve runs in its own session (setsid below): stop npx, the CLI and the server it re-spawns.
        kill -TERM -- "-$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
        kill -KILL -- "-$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
# shellcheck source=test/smoke-http.sh
source "$ROOT/test/smoke-http.sh"

fail() {
    echo "FAIL: $*" >&2
    if [ -f "$WORK/serve.log" ]; then
        echo "--- serve output" >&2
        tail -n 40 "$WORK/serve.log" >&2
    fi
    exit 1
}

echo "== pack"
if [ -n "${PACK_TARBALL:-}" ]; then
    TARBALL="$(cd "$(dirname "$PACK_TARBALL")" && pwd)/$(basename "$PACK_TARBALL")"
else
    if [ "${PACK_PREBUILT:-}" = 1 ]; then
        [ -f "$ROOT/dist/core/server.js" ] && [ -f "$ROOT/dist/public/widget/loader.js" ] || fail "PACK_PREBUILT=1 but no build in dist/"
        (cd "$ROOT" && npm pack --ignore-scripts --silent --pack-destination "$WORK" >/dev/null)
    else
        (cd "$ROOT" && npm pack --silent --pack-destination "$WORK" >/dev/null)
    fi
    TARBALL="$(ls "$WORK"/loyalty-chat-*.tgz)"
fi
[ -f "$TARBALL" ] || fail "no tarball"
tar tzf "$TARBALL" > "$WORK/contents.txt"
echo "ok   tarball $(basename "$TARBALL"): $(wc -l < "$WORK/contents.txt") files"
for required in package/bin/loyalty-chat package/dist/bin/cli.js package/dist/core/server.js package/dist/config/index.js \
    package/dist/public/admin/index.html package/dist/public/widget/loader.js package/README.md; do
    grep -qx "$required" "$WORK/contents.txt" || fail "the tarball lacks $required"
done
echo "ok   holds bin/loyalty-chat, dist/{bin,core,config,plugins,public} and README.md"
if grep -E '^package/(dist/(test|bench)/|test/|bench/|ui/|widget/|.*\.map$|.*\.ts$)' "$WORK/contents.txt"; then
    fail "the tarball holds tests, benchmarks, sources or source maps (listed above)"
fi
echo "ok   no tests, benchmarks, ui/widget sources, .ts files or source maps"

echo "== install into an empty folder"
mkdir "$WORK/app"
cd "$WORK/app"
npm init -y >/dev/null
if [ "${PACK_PREBUILT:-}" = 1 ] && [ -f "$ROOT/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ]; then
    # CI: better-sqlite3 was compiled from source by `npm ci` minutes ago (its prebuilt binaries are on GitHub,
    # out of reach here); hand that build to its installer as a local prebuild (prebuild-install's
    # `local-prebuilds`, read from .prebuild-installrc) instead of compiling the same version a second time.
    BSQ_VERSION="$(node -p "require('$ROOT/node_modules/better-sqlite3/package.json').version")"
    mkdir "$WORK/prebuilds"
    (cd "$ROOT/node_modules/better-sqlite3" && tar czf "$WORK/prebuilds/better-sqlite3-v$BSQ_VERSION-node-v$(node -p process.versions.modules)-$(node -p process.platform)-$(node -p process.arch).tar.gz" build/Release/better_sqlite3.node)
    echo "local-prebuilds=$WORK/prebuilds" > .prebuild-installrc
fi
npm install --no-audit --no-fund --loglevel=error "$TARBALL" > "$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; fail "npm install of the tarball"; }
echo "ok   npm install $(basename "$TARBALL") (production dependencies only)"
[ ! -e node_modules/typescript ] || fail "a devDependency (typescript) was installed"

echo "== npx loyalty-chat serve"
PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
# Only the defaults: none of the caller's settings (a CI's DATABASE_URL, say) reach the server.
env -u DATABASE_URL -u DATABASE_SCHEMA -u REDIS_URL -u NODE_ENV -u JWT_SECRET -u PUBLIC_URL -u CONFIG_FILE -u PORT -u HOST \
    -u SEED_DEMO_ON_EMPTY DATA_DIR="$WORK/app/data" LOG_LEVEL=warn \
    setsid npx --no loyalty-chat serve --port "$PORT" --host 127.0.0.1 > "$WORK/serve.log" 2>&1 < /dev/null &
SERVER_PID=$!
BASE="http://127.0.0.1:$PORT"
serving() { kill -0 "$SERVER_PID" 2>/dev/null; }
wait_for_health serve serving

check /health 200 application/json
grep -q '"status":"ok"' "$WORK/body" || fail "/health does not say ok: $(cat "$WORK/body")"
check / 200 text/html
check /admin-login 200 text/html
check /widget-demo.js 200 application/javascript

mode() { stat -c '%a' "$1"; }
[ "$(mode "$WORK/app/data")" = 700 ] || fail "the data folder is $(mode "$WORK/app/data"), expected 700"
for f in "$WORK"/app/data/loyalty-chat.sqlite* "$WORK/app/data/jwt-secret"; do
    [ "$(mode "$f")" = 600 ] || fail "$(basename "$f") is $(mode "$f"), expected 600"
done
echo "ok   data folder 700; $(cd "$WORK/app/data" && echo *) are 600"

echo "pack smoke test passed"
