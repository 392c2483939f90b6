#!/usr/bin/env bash
# A power cut through .storlab/control under ext4 on a loop device on an
# image whose stack has a volatile write-back cache. The host dies with the
# disk: `fail` first (from then on no write of the old host lands), unmount
# what is left, `replace`, then `power-cut` (the cache loses what it held;
# the oracle checks every block). After it: ext4 replays its journal on
# mount, what was synced before the cut is intact, e2fsck -fn is clean,
# and the oracle reports zero violations.
source "$(dirname "$0")/functions.sh" "$@"
requires mkfs.ext4
requires e2fsck
requires losetup
mount_stack --stack "$here/../serve/stacks/writeback.toml"
img=$mnt/cache.img
[[ $(stat_json 'j["service"]["exports"][0]["volatile_cache"]') == True ]] || fail "no volatile cache"
loop=$(new_loop "$img")
mkfs.ext4 -q -F -J size=4 "$loop" || fail "mkfs.ext4"
mount_fs "$loop" "$scratch/fs"
head -c 3M /dev/urandom >"$scratch/synced"
cp "$scratch/synced" "$scratch/fs/synced"
sync
# Unsynced work, in the page cache, the journal and the disk's cache.
for i in $(seq 1 20); do head -c 100k /dev/urandom >"$scratch/fs/late$i"; done
sync -f "$scratch/fs/late1" 2>/dev/null || true
head -c 1M /dev/urandom >"$scratch/fs/unsynced"
dirty=$(stat_json 'sum(n["model"].get("dirty_bytes", 0) for n in j["stack"]["nodes"])')
control fail cache >/dev/null
umount_fs "$scratch/fs" 2>/dev/null || true
drop_loop "$loop"
control replace cache >/dev/null
answer=$(control power-cut)
echo "$answer"
grep -q "cache: .* 0 violations" <<<"$answer" || fail "the oracle found violations"
[[ $(stat_json 'j["service"]["oracle"][0]["last_power_cut"]["violations"]') == 0 ]] ||
  fail "stats.json: violations"
[[ $(stat_json "$answered") == True ]] || fail "requests left unanswered"
loop=$(new_loop "$img")
mount_fs "$loop" "$scratch/fs"  # replays the journal
cmp "$scratch/synced" "$scratch/fs/synced" || fail "a file synced before the cut differs"
umount_fs "$scratch/fs"
e2fsck -fn "$loop" >"$scratch/fsck.out" 2>&1 || { cat "$scratch/fsck.out"; fail "e2fsck -fn after the cut"; }
drop_loop "$loop"
unmount_stack
echo "ok (the cache held $dirty dirty bytes at the cut)"
