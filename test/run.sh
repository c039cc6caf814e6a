#!/usr/bin/env bash
# What `npm test` runs once `npm run build` is done (`npm run test:built` runs this alone, on the last build):
#
#   1. on the embedded SQLite default (always): unit and integration tests, and the browser smoke set
#      (e2e tests tagged @smoke: the storefront's points flow, a live chat, the admin login);
#   2. with DATABASE_URL=postgres://… (and REDIS_URL=redis://…, as production runs): unit and integration tests
#      again, and the whole browser suite.
#
# Test files run in parallel (mocha --parallel, TEST_JOBS files at once, default 3): each file starts its own
# servers on free ports, with its own SQLite file or PostgreSQL schema and its own Redis key prefix. The two
# runs go one after the other. Screenshots are taken only with SCREENSHOTS=1 (test-output/screenshots/).
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS=${TEST_JOBS:-3}
UNIT="dist/test/unit/**/*.test.js"
INTEGRATION="dist/test/integration/**/*.test.js"
E2E="dist/test/e2e/**/*.test.js"

if [ ! -d dist/test ]; then
    echo "dist/test is missing: run npm run build first (npm test does)" >&2
    exit 1
fi

TIMINGS=$(mktemp)
export TEST_TIMINGS=$TIMINGS
trap 'rm -f "$TIMINGS"' EXIT
slowest() {
    # Every file's time is kept in test-output/timings-<stage>.txt; the 12 slowest are printed.
    mkdir -p test-output
    sort -rn "$TIMINGS" | sed 's#\t[^\t]*dist/test/#\t#' >"test-output/timings-$1.txt"
    echo "   slowest files (wall seconds, files run ${JOBS} at a time; all in test-output/timings-$1.txt):"
    sed -n 1,12p "test-output/timings-$1.txt" | sed 's#^#     #'
    : >"$TIMINGS"
}

started=$(date +%s)
echo "== SQLite (embedded default): unit + integration"
status=0
env -u DATABASE_URL -u DATABASE_SCHEMA -u REDIS_URL npx mocha --parallel --jobs "$JOBS" --spec "$UNIT" --spec "$INTEGRATION" || status=$?
echo "== SQLite (embedded default): browser smoke set (@smoke)"
env -u DATABASE_URL -u DATABASE_SCHEMA -u REDIS_URL npx mocha --parallel --jobs "$JOBS" --spec "$E2E" --grep @smoke || status=$?
echo "   SQLite done in $(( $(date +%s) - started )) s"
slowest sqlite
[ "$status" -eq 0 ] || exit "$status"

case "${DATABASE_URL:-}" in
    postgres://*|postgresql://*)
        started=$(date +%s)
        echo "== PostgreSQL${REDIS_URL:+ + Redis}: unit + integration + the whole browser suite"
        npx mocha --parallel --jobs "$JOBS" --spec "$UNIT" --spec "$INTEGRATION" --spec "$E2E" || status=$?
        echo "   PostgreSQL done in $(( $(date +%s) - started )) s"
        slowest postgresql
        [ "$status" -eq 0 ] || exit "$status"
        ;;
    *)
        echo "== PostgreSQL: skipped (set DATABASE_URL=postgres://… and REDIS_URL=redis://… to run it and the whole browser suite)"
        ;;
esac
