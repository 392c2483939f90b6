#!/usr/bin/env bash
# Bad plugin parameters: nbdkit refuses to start, with an error that names
# the parameter and what it expected — before serving anything (a path the
# server writes at exit is checked at start, not found wrong at the end).
source "$(dirname "$0")/lib.sh"
n=0
# refused EXPECTED PARAMS...: nbdkit with PARAMS exits non-zero, saying EXPECTED.
refused() {
  local want=$1 rc=0
  shift
  n=$((n + 1))
  "${preload[@]}" nbdkit -f -U "$tmp/s$n.sock" "$STORLAB_PLUGIN" "$@" --run true \
    >"$tmp/out" 2>&1 || rc=$?
  ((rc != 0)) || fail "accepted: $*"
  grep -qF -- "$want" "$tmp/out" || fail "$*: expected '$want', got: $(head -3 "$tmp/out")"
}
refused "stack=STACK is required"
# Not here: stack=nosuch. It is refused the same way, but under a
# sanitizer runtime preloaded into nbdkit its exit then hangs in
# libp11-kit's destructor (freelocale waiting for glibc's locale lock):
# the CLI's tests/cli/bad_input_test.sh covers the message.
refused "has no such node" stack=ram export=nope
refused "expected memory, none or file:DIR" stack=ram store=bogus
refused "seed: expected a whole number" stack=ram seed=abc
refused "seed: expected a whole number" stack=ram seed=12x
refused "compensate: expected auto, off or a duration" stack=ram compensate=fast
refused "spin: at most 100ms" stack=ram spin=1h
refused "a duration cannot be negative" stack=ram spin=-5us
refused "boolean" stack=ram oracle=maybe
refused "unknown parameter 'bogus'" stack=ram bogus=1
refused "stats=: expected a path" stack=ram stats=
refused "the folder '$tmp/none' does not exist" stack=ram "stats=$tmp/none/x.json"
refused "state=: expected a path" stack=ram state=
refused "control: '$tmp/none/c.sock': the folder '$tmp/none' does not exist" \
  stack=ram "control=$tmp/none/c.sock"
refused "the folder '$tmp/none' does not exist" stack=ram "state=$tmp/none/st"
# Nothing was created on the way.
[[ ! -e $tmp/none ]] || fail "a refused start created $tmp/none"
echo ok
