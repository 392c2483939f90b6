#!/usr/bin/env bash
# nbdcopy round-trips a file through a simulated disk bit for bit; qemu-img
# converts a file into it and compares.
source "$(dirname "$0")/lib.sh"
requires nbdcopy qemu-img
stack=$STORLAB_SOURCE_DIR/tests/nbd/stacks/small-ssd.toml
head -c $((64 << 20)) /dev/urandom >"$tmp/in.img"
start_server "$STORLAB_PLUGIN" "stack=$stack"
nbdcopy "$tmp/in.img" "$uri"
nbdcopy --requests=16 "$uri" "$tmp/out.img"
cmp "$tmp/in.img" "$tmp/out.img" || fail "nbdcopy: the copy back differs"
echo "ok: nbdcopy in and out, bit for bit"
head -c $((64 << 20)) /dev/urandom >"$tmp/q.img"
qemu-img convert -n -f raw -O raw "$tmp/q.img" "$uri"
qemu-img compare -f raw -F raw "$tmp/q.img" "$uri" || fail "qemu-img compare: the images differ"
echo "ok: qemu-img convert into the export; qemu-img compare: identical"
stop_server
