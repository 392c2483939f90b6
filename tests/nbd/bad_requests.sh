#!/usr/bin/env bash
# Out-of-range, misaligned, oversized and zero-length requests get an NBD
# error; the server stays up and loses nothing (tests/nbd/nbd_client.cc).
source "$(dirname "$0")/lib.sh"
for stack in hdd-7200 "$STORLAB_SOURCE_DIR/tests/nbd/stacks/small-ssd.toml"; do
  start_server "$STORLAB_PLUGIN" "stack=$stack"
  "$NBD_CLIENT" bad-requests "$uri" || fail "$stack"
  stop_server
done
