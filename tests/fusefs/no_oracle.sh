#!/usr/bin/env bash
# --no-oracle: the data is kept (written bytes read back), nothing is
# tracked (no oracle in the stats), and a power cut says why it checks
# nothing.
source "$(dirname "$0")/functions.sh" "$@"
mount_stack --stack hdd-7200 --direct-io --no-oracle
head -c 65536 /dev/urandom >"$scratch/data"
dd if="$scratch/data" of="$mnt/hdd.img" bs=64k seek=3 oflag=direct conv=notrunc status=none
dd if="$mnt/hdd.img" of="$scratch/back" bs=64k skip=3 count=1 iflag=direct status=none
cmp "$scratch/data" "$scratch/back" || fail "the data written did not read back"
[[ $(stat_json 'len(j["service"]["oracle"])') == 0 ]] || fail "an oracle is tracking: $(stat_json 'j["service"]["oracle"]')"
control flush | grep -q "^flush: ok" || fail "flush"
control power-cut | grep -q "no oracle: it was turned off" || fail "power-cut: $(cat "$mnt/.storlab/control")"
# Flushed before the cut: still there after it.
dd if="$mnt/hdd.img" of="$scratch/back" bs=64k skip=3 count=1 iflag=direct status=none
cmp "$scratch/data" "$scratch/back" || fail "flushed data lost at the power cut"
unmount_stack
echo ok
