# HTTP checks shared by test/pack-smoke.sh and test/image-smoke.sh (sourced, not run): the caller sets BASE (the
# server's URL) and WORK (a scratch folder) and defines fail.

# wait_for_health WHAT ALIVE...: polls $BASE/health every 0.5 s for up to 60 s, failing as soon as the command ALIVE
# says the server (WHAT, for the message) is no longer running.
wait_for_health() {
    local what=$1
    shift
    for _ in $(seq 1 120); do
        if curl -fsS -o /dev/null "$BASE/health" 2>/dev/null; then return 0; fi
        "$@" || fail "$what exited before answering"
        sleep 0.5
    done
    fail "no answer on $BASE/health within 60 s"
}

# check PATH STATUS CONTENT-TYPE-PREFIX: GET $BASE$PATH into $WORK/body, with that status and content type.
check() {
    local out
    out="$(curl -sS -o "$WORK/body" -w '%{http_code} %{content_type}' "$BASE$1")" || fail "GET $1: no answer"
    local code="${out%% *}" type="${out#* }"
    [ "$code" = "$2" ] || fail "GET $1 answered $code, expected $2"
    case "$type" in "$3"*) ;; *) fail "GET $1 is '$type', expected $3";; esac
    echo "ok   GET $1 -> $code $type ($(wc -c < "$WORK/body") bytes)"
}
