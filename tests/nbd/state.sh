#!/usr/bin/env bash
# state=DIR: what one nbdkit run wrote is on the disk the next run serves
# (the whole stack saved at exit, once idle, and restored at start); a
# state of another stack is refused at start, naming DIR, and left as it is.
source "$(dirname "$0")/lib.sh"
requires nbdcopy
stack=$STORLAB_SOURCE_DIR/tests/nbd/stacks/small-ssd.toml
head -c $((16 << 20)) /dev/urandom >"$tmp/in.img"
start_server "$STORLAB_PLUGIN" "stack=$stack" "state=$tmp/state"
nbdcopy "$tmp/in.img" "$uri"
stop_server
[[ -f $tmp/state/MANIFEST ]] || { cat "$tmp/server.log" >&2; fail "no state was saved at exit"; }
cp "$tmp/state/MANIFEST" "$tmp/manifest.before"
echo "ok: the stack's state saved at exit"

start_server "$STORLAB_PLUGIN" "stack=$stack" "state=$tmp/state"
nbdcopy --requests=16 "$uri" "$tmp/out.img"
stop_server
cmp -n $((16 << 20)) "$tmp/in.img" "$tmp/out.img" || fail "the next run reads other data"
echo "ok: the next run serves what the first wrote, bit for bit"

if "${preload[@]}" nbdkit -f -U "$tmp/other.sock" "$STORLAB_PLUGIN" stack=hdd-7200 "state=$tmp/state" \
    >"$tmp/other.log" 2>&1; then
  fail "a state of another stack was accepted"
fi
grep -q "$tmp/state" "$tmp/other.log" || { cat "$tmp/other.log" >&2; fail "the refusal does not name DIR"; }
[[ -f $tmp/state/MANIFEST ]] || fail "the refused run removed the state"
echo "ok: another stack is refused at start: $(grep -m1 -o 'state .*' "$tmp/other.log" | cut -c1-120)"
