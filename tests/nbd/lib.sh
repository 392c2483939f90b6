# Shared by the NBD export's tests (tests/nbd/*.sh), in nbdkit's style: each
# test is a small script about one aspect, runs the real nbdkit with the
# storlab plugin on a private Unix socket, drives it with real clients, and
# exits 0 (pass), 1 (fail) or 77 (skip: a tool is truly missing).
#
# The environment (set by tests/nbd/CMakeLists.txt):
#   STORLAB_PLUGIN   the plugin (.so)        NBD_CLIENT   tests/nbd/nbd_client
#   STORLAB          the storlab command     STORLAB_SOURCE_DIR
#   STORLAB_PRELOAD  a sanitizer runtime to preload into nbdkit (sanitizer builds)
set -euo pipefail

requires() {
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t is not installed"; exit 77; }
  done
}
requires nbdkit

tmp=$(mktemp -d /tmp/storlab-nbd.XXXXXX)
server_pid=
cleanup() {
  stop_server || true
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# "${preload[@]}" CMD...: runs CMD (nbdkit) with the sanitizer runtime
# preloaded when the plugin was built with one (an `env` prefix, so a
# background job's pid is nbdkit's own).
preload=()
[[ -n ${STORLAB_PRELOAD:-} ]] && preload=(env "LD_PRELOAD=$STORLAB_PRELOAD"
  "ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1"
  "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1")

# start_server [NBDKIT OPTIONS --] PLUGIN PARAMS...: nbdkit in the
# foreground of a background job, on $sock; waits for the socket.
# The URI of the default export is $uri.
start_server() {
  sock=$tmp/nbd.sock
  local opts=()
  if [[ " $* " == *" -- "* ]]; then
    while [[ $1 != -- ]]; do opts+=("$1"); shift; done
    shift
  fi
  rm -f "$sock"
  "${preload[@]}" nbdkit -f -U "$sock" "${opts[@]}" "$STORLAB_PLUGIN" "$@" \
    >"$tmp/server.log" 2>&1 &
  server_pid=$!
  local i
  for i in $(seq 1 2400); do  # up to 2 minutes: sanitizer builds start slowly
    [[ -S $sock ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/server.log" >&2; fail "nbdkit did not start"; }
    sleep 0.05
  done
  [[ -S $sock ]] || fail "nbdkit's socket did not appear"
  uri="nbd+unix:///?socket=$sock"
}

# wait_for PATH: until PATH exists (a socket the server makes after its own).
wait_for() {
  local i
  for i in $(seq 1 2400); do [[ -e $1 ]] && return 0; sleep 0.05; done
  fail "$1 did not appear"
}

# uri_of EXPORT: the URI of a named export.
uri_of() { echo "nbd+unix:///$1?socket=$sock"; }

# stop_server: SIGTERM, wait; fails if nbdkit did not exit cleanly.
stop_server() {
  [[ -n $server_pid ]] || return 0
  local pid=$server_pid rc=0
  server_pid=
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" || rc=$?
  if ((rc != 0)); then
    cat "$tmp/server.log" >&2
    echo "nbdkit exited with status $rc" >&2
    return 1
  fi
}

# json_get FILE EXPR: a value from a JSON file (python3's json, EXPR in
# Python on `d`).
json_get() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

catalog() { "$STORLAB" stacks | awk 'NF && $1 !~ /^#/ {print $1}'; }
