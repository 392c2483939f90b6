#!/usr/bin/env bash
# Four disks of one stack exported at once (one timeline): nbdinfo lists
# them, and fio writes and verifies all four at the same time.
source "$(dirname "$0")/lib.sh"
requires fio nbdinfo
start_server --threads 32 -- "$STORLAB_PLUGIN" \
  "stack=$STORLAB_SOURCE_DIR/tests/nbd/stacks/four-disks.toml"
nbdinfo --list --json "$uri" >"$tmp/list.json"
names=$(json_get "$tmp/list.json" "' '.join(e['export-name'] for e in d['exports'])")
[[ $names == "disk.0 disk.1 disk.2 disk.3" ]] || fail "exports: '$names'"
{
  printf '[global]\nioengine=nbd\ndirect=1\nverify=xxhash\nverify_fatal=1\nsize=4m\n'
  printf 'rw=randwrite\nbs=64k\niodepth=8\n'
  for d in 0 1 2 3; do printf '[disk%s]\nuri=%s\n' "$d" "$(uri_of disk.$d)"; done
} >"$tmp/job.fio"
fio --output-format=json --output="$tmp/fio.json" "$tmp/job.fio" || fail "fio failed"
for d in 0 1 2 3; do
  [[ $(json_get "$tmp/fio.json" "d['jobs'][$d]['error']") == 0 ]] || fail "disk.$d: fio error"
done
# An unknown export name is refused, the server goes on.
if nbdinfo "$(uri_of disk.9)" >/dev/null 2>&1; then fail "export disk.9 was served"; fi
nbdinfo "$(uri_of disk.3)" >/dev/null || fail "disk.3 no longer served"
stop_server
echo "ok: four exports listed, written and verified at once; an unknown one refused"
