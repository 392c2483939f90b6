#!/usr/bin/env bash
# Image mode: reads and writes at any offset and size, from 4 threads at
# once, on 512-byte and 4 KiB logical blocks, through the page cache and
# with direct I/O — partial blocks are read-modify-written, never torn.
source "$(dirname "$0")/functions.sh" "$@"
requires python3
for stack in ram "$here/stacks/lb4k.toml"; do
  for cache in "" --direct-io; do
    mount_stack --stack "$stack" $cache
    img=$(ls "$mnt"/*.img)
    python3 "$here/unaligned.py" "$img" 262144 7 || fail "$stack $cache"
    [[ $(stat_json "$answered") == True ]] || fail "unanswered requests"
    unmount_stack
  done
done
echo ok
