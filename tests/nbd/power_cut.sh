#!/usr/bin/env bash
# A power cut over the control socket in the middle of writes: every request
# in flight is answered (EIO), every acknowledged-and-flushed block is
# intact afterwards, and the server's oracle reports no violation
# (tests/nbd/nbd_client.cc power-cut).
source "$(dirname "$0")/lib.sh"
for stack in "$STORLAB_SOURCE_DIR/tests/serve/stacks/writeback.toml" hdd-7200; do
  start_server "$STORLAB_PLUGIN" "stack=$stack" "control=$tmp/ctl"
  wait_for "$tmp/ctl"
  "$NBD_CLIENT" power-cut "$uri" "$tmp/ctl" || fail "$stack"
  stop_server
done
