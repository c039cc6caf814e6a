#!/usr/bin/env bash
# The container image, proven (issue 24): builds the Dockerfile with podman, runs it on its embedded SQLite with a
# named volume, checks /health, the demo storefront, the admin login page and the widget's scripts, then replaces the
# container with a new one on the same volume and checks the data survived (no second demo seed). Exits non-zero on
# any failure; removes its container and volume (the image stays, as a cache for the next run).
#
#   bash test/image-smoke.sh                       (as root: installs podman, runc and debootstrap when missing)
#   IMAGE_SMOKE_CLEAN=1 bash test/image-smoke.sh   (removes the image afterwards too)
#   IMAGE_SMOKE_NO_BUILD=1 bash test/image-smoke.sh (checks the image $IMAGE already built, without building it again)
#   IMAGE_SMOKE_BUILD_ONLY=1 bash test/image-smoke.sh (builds and measures the image, runs nothing: .ci/run builds it
#                                                     while the tests run, then checks it with IMAGE_SMOKE_NO_BUILD=1)
#
# The base image node:20-bookworm-slim cannot be pulled on these machines: when podman does not have it, the
# stand-in of the shared tools' stand-in-node-image.sh (Debian bookworm + this machine's Node 20, same name) is
# built once (~3 min): the one STAND_IN names, else ../shared/tools/ beside this checkout, else /work/shared/tools/
# (CI runs on a clean clone elsewhere on the machine). The flags are the ones these machines allow (see that script's header):
# `--isolation chroot` for builds, runc with cgroupfs and ulimits below the host's for runs.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BASE_IMAGE=${BASE_IMAGE:-docker.io/library/node:20-bookworm-slim}
IMAGE=${IMAGE:-localhost/loyalty-chat:smoke}
if [ -z "${STAND_IN:-}" ]; then
    for candidate in "$ROOT/../shared/tools/stand-in-node-image.sh" /work/shared/tools/stand-in-node-image.sh; do
        if [ -f "$candidate" ]; then STAND_IN=$candidate; break; fi
    done
fi
STAND_IN=${STAND_IN:-$ROOT/../shared/tools/stand-in-node-image.sh}
NAME="lc-image-smoke-$$"
VOLUME="lc-image-smoke-data-$$"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/lc-image-smoke-XXXXXX")"
RUN=(podman --runtime runc --cgroup-manager cgroupfs)

cleanup() {
    "${RUN[@]}" rm -f -t 5 "$NAME" >/dev/null 2>&1 || true
    podman volume rm -f "$VOLUME" >/dev/null 2>&1 || true
    if [ "${IMAGE_SMOKE_CLEAN:-}" = 1 ]; then podman rmi -f "$IMAGE" >/dev/null 2>&1 || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
# shellcheck source=test/smoke-http.sh
source "$ROOT/test/smoke-http.sh"
running() { [ "$("${RUN[@]}" inspect -f '{{.State.Running}}' "$NAME" 2>/dev/null)" = true ]; }

fail() {
    echo "FAIL: $*" >&2
    "${RUN[@]}" logs "$NAME" 2>&1 | tail -n 40 >&2 || true
    exit 1
}
# Waits (up to 10 s) until the container's log holds PATTERN, saving it to FILE: podman's log file lags the
# process's stdout, so a log read right after /health answers may not have the start-up lines yet.
# (into a file first: grep -q stopping early would fail the pipe under pipefail)
log_has() {
    local pattern=$1 file=$2 i
    for i in $(seq 1 50); do
        "${RUN[@]}" logs "$NAME" > "$file" 2>&1 || true
        grep -q "$pattern" "$file" && return 0
        sleep 0.2
    done
    return 1
}
t0=$(date +%s)
since() { echo "$(( $(date +%s) - t0 )) s"; }

echo "== podman"
if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap >/dev/null
fi
podman --version

echo "== base image $BASE_IMAGE"
if podman image exists "$BASE_IMAGE"; then
    echo "ok   present"
else
    [ -f "$STAND_IN" ] || fail "no $BASE_IMAGE and no stand-in script at $STAND_IN"
    IMAGE="$BASE_IMAGE" bash "$STAND_IN" >/dev/null
    echo "ok   stand-in built ($(since))"
fi

if [ "${IMAGE_SMOKE_NO_BUILD:-}" = 1 ]; then
    podman image exists "$IMAGE" || fail "IMAGE_SMOKE_NO_BUILD=1 but no image $IMAGE"
    echo "== podman build skipped (IMAGE_SMOKE_NO_BUILD=1): $IMAGE"
else
echo "== podman build"
# The host's npm cache serves the build's `npm ci` what this machine downloaded already (a build-time mount only:
# nothing of it stays in the image).
NPM_CACHE="$(npm config get cache 2>/dev/null || echo "$HOME/.npm")"
mkdir -p "$NPM_CACHE"
podman build --isolation chroot --network host --format docker --build-arg NODE_IMAGE="$BASE_IMAGE" \
    -v "$NPM_CACHE:/root/.npm" -t "$IMAGE" "$ROOT" > "$WORK/build.log" 2>&1 \
    || { tail -n 40 "$WORK/build.log" >&2; fail "podman build"; }
fi
size=$(podman image inspect "$IMAGE" --format '{{.Size}}')
base=$(podman image inspect "$BASE_IMAGE" --format '{{.Size}}')
echo "ok   built $IMAGE ($(since)): $((size / 1000000)) MB, of which $(((size - base) / 1000000)) MB above the base"
[ $((size - base)) -lt 100000000 ] || fail "the app's layers are $(((size - base) / 1000000)) MB, over 100 MB"
if [ "${IMAGE_SMOKE_BUILD_ONLY:-}" = 1 ]; then
    echo "image built ($(since)); not run (IMAGE_SMOKE_BUILD_ONLY=1)"
    exit 0
fi

PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
BASE="http://127.0.0.1:$PORT"
# One secret for both containers, as an operator keeps it (NODE_ENV=production requires one).
SECRET="$(openssl rand -base64 48 | tr -d '\n')"
start() {
    # --no-healthcheck: podman runs HEALTHCHECK through systemd timers, absent here (the checks below do its work).
    "${RUN[@]}" run -d --name "$NAME" --network host --no-healthcheck --ulimit nofile=10000:10000 --ulimit nproc=4096:4096 \
        -v "$VOLUME:/app/data" -e PORT="$PORT" -e HOST=127.0.0.1 -e JWT_SECRET="$SECRET" -e SEED_DEMO_ON_EMPTY=true -e LOG_LEVEL=warn \
        "$IMAGE" >/dev/null \
        || fail "podman run"
    wait_for_health "the container" running
}

echo "== podman run (volume $VOLUME)"
start
echo "ok   up ($(since))"
check /health 200 application/json
grep -q '"status":"ok"' "$WORK/body" || fail "/health does not say ok: $(cat "$WORK/body")"
check / 200 text/html
grep -qi 'demo' "$WORK/body" || fail "/ is not the demo storefront"
check /admin-login 200 text/html
check /widget-demo.js 200 application/javascript
# The widget's panel chunk (hashed name, as the loader asks for it), read from the image's build.
PANEL="$("${RUN[@]}" exec "$NAME" ls /app/dist/public/widget | grep -E '^panel\.[0-9a-f]{10}\.js$' | sed -n 1p)"
[ -n "$PANEL" ] || fail "no widget panel chunk in the image"
check "/widget/$PANEL" 200 text/javascript
log_has 'The database was empty: created the demo tenant' "$WORK/first.log" || fail "the first start did not seed the demo tenant"
echo "ok   first start seeded the demo tenant"
[ "$("${RUN[@]}" exec "$NAME" id -u)" = 1000 ] || fail "the server does not run as the node user"
echo "ok   runs as uid 1000 (node)"
# The AI agent's sentence model loads from the image's own files (nothing fetched) and reads meaning, not words:
# a paraphrase is closer to its entry than to another one (issue 30; the image prunes its dependencies' extra files).
"${RUN[@]}" exec -w /app "$NAME" node -e "
const { packagedEncoder } = require('./dist/plugins/ai/services/meanings');
const { cosine } = require('./dist/plugins/ai/services/vectors');
packagedEncoder().encode(['Do my points ever expire?', 'Points expiration', 'Shipping to Canada']).then(([q, right, wrong]) => {
    const a = cosine(q, right), b = cosine(q, wrong);
    console.log('ok   the sentence model runs in the image: ' + a.toFixed(2) + ' to its entry, ' + b.toFixed(2) + ' to another');
    process.exit(q.length === 512 && a > b ? 0 : 1);
}, (err) => { console.error(err); process.exit(1); });" || fail "the AI agent's sentence model does not run in the image"

echo "== a new container on the same volume"
"${RUN[@]}" stop -t 10 "$NAME" >/dev/null
"${RUN[@]}" rm "$NAME" >/dev/null
start
check /health 200 application/json
log_has 'is running on' "$WORK/second.log" || fail "the new container did not say it runs"
if grep -q 'The database was empty' "$WORK/second.log"; then
    fail "the data did not survive: the new container seeded again"
fi
echo "ok   the data survived (no second seed)"
echo "image smoke test passed ($(since))"
