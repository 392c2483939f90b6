#!/usr/bin/env bash
# btrfs RAID1 (data and metadata) across two simulated HDDs of one stack,
# each a loop device on its image: write and read back; fail one disk
# through .storlab/control — reads still succeed, btrfs counts the errors;
# replace it; btrfs scrub repairs what it missed; the data is intact.
source "$(dirname "$0")/functions.sh" "$@"
requires mkfs.btrfs
requires btrfs
requires losetup
mount_stack --stack "$here/stacks/two-hdd.toml"
l0=$(new_loop "$mnt/disk.0.img")
l1=$(new_loop "$mnt/disk.1.img")
# -K: no discard — on these HDDs (no trim) it is 1 GiB of write-zeroes,
# most of the test's time (12 s under ASan); loop_ext4 covers discard.
mkfs.btrfs -q -f -K -d raid1 -m raid1 "$l0" "$l1" >/dev/null || fail "mkfs.btrfs"
btrfs device scan "$l0" "$l1" >/dev/null 2>&1 || true
mount_fs "$l0" "$scratch/fs"
head -c 4M /dev/urandom >"$scratch/a"
cp "$scratch/a" "$scratch/fs/a"
sync
control fail disk.0
# Reads: the page cache dropped, every block comes from disk.1.
drop_caches
cmp "$scratch/a" "$scratch/fs/a" || fail "read with disk.0 failed"
# Writes while disk.0 is gone reach only disk.1.
head -c 2M /dev/urandom >"$scratch/b"
cp "$scratch/b" "$scratch/fs/b"
sync
errors=$(btrfs device stats "$scratch/fs" | awk '/_errs/ {s += $2} END {print s + 0}')
((errors > 0)) || fail "btrfs saw no errors with disk.0 failed"
control replace disk.0
btrfs scrub start -B "$scratch/fs" >"$scratch/scrub.out" 2>&1 || true
grep -Eq "corrected|Error summary" "$scratch/scrub.out" || { cat "$scratch/scrub.out"; fail "scrub"; }
btrfs device stats -z "$scratch/fs" >/dev/null
btrfs scrub start -B "$scratch/fs" >"$scratch/scrub2.out" 2>&1 || { cat "$scratch/scrub2.out"; fail "a second scrub still found errors"; }
grep -q "no errors found" "$scratch/scrub2.out" || { cat "$scratch/scrub2.out"; fail "a second scrub still found errors"; }
umount_fs "$scratch/fs"
drop_loop "$l1"
drop_loop "$l0"
unmount_stack
echo "ok: $errors errors while failed; scrub: $(grep -iE 'corrected|summary' "$scratch/scrub.out" | head -2 | tr -s ' ' | tr '\n' ';')"
