#!/usr/bin/env bash
# Tree mode on an 8 MiB device: writing past the free space fails with
# ENOSPC and takes nothing; statfs tracks it; removing files gives the
# space back; truncate frees blocks; fallocate reserves them; punch hole
# frees them again and zero range zeroes in place.
source "$(dirname "$0")/functions.sh" "$@"
mount_stack --stack "$here/stacks/small.toml" --tree
avail() { stat -f -c %a "$mnt"; }
total=$(stat -f -c %b "$mnt")
((total == 2048)) || fail "statfs: $total blocks of 4 KiB, expected 2048"
dd if=/dev/urandom of="$mnt/a" bs=1M count=5 status=none
if dd if=/dev/zero of="$mnt/b" bs=1M count=5 status=none 2>"$scratch/dd.err"; then
  fail "a write past the free space succeeded"
fi
grep -q "No space left" "$scratch/dd.err" || fail "not ENOSPC: $(cat "$scratch/dd.err")"
((avail_now = $(avail))) || true
(( avail_now < 256 )) || fail "after filling, $avail_now blocks still free"
b_size=$(stat -c %s "$mnt/b")
((b_size <= 3 * 1048576)) || fail "b holds $b_size bytes: more than fitted"
# A failed write took no block: b's blocks cover its size.
(( $(stat -c %b "$mnt/b") * 512 >= b_size )) || fail "b's blocks do not cover its size"
rm "$mnt/b"
truncate -s 1M "$mnt/a"
(( $(avail) >= 1792 )) || fail "truncate and rm gave back $(avail) blocks"
fallocate -l 4M "$mnt/r"
[[ $(stat -c %s "$mnt/r") == 4194304 ]] || fail "fallocate: size"
cmp -n 4194304 "$mnt/r" /dev/zero || fail "fallocated blocks do not read as zeros"
(( $(avail) < 1100 )) || fail "fallocate reserved nothing"
# PUNCH_HOLE gives the whole blocks inside the range back and zeroes the
# partial ends; ZERO_RANGE keeps the blocks; both read as zeros, the size
# stays; punching past the end changes nothing.
head -c 262144 /dev/urandom >"$scratch/orig"
cp "$scratch/orig" "$mnt/p"
sync
before=$(avail)
fallocate -p -o 4000 -l 65536 "$mnt/p" || fail "punch hole refused"
(( $(avail) == before + 15 )) || fail "punch hole freed $(($(avail) - before)) blocks, expected 15"
fallocate -z -o 100000 -l 50000 "$mnt/p" || fail "zero range refused"
(( $(avail) == before + 15 )) || fail "zero range changed the free space"
fallocate -p -o 1000000 -l 4096 "$mnt/p" || fail "punch hole past the end refused"
fallocate -p -o 0 -l 4096 "$mnt/r" || fail "punch hole of fallocated blocks refused"
[[ $(stat -c %s "$mnt/p") == 262144 ]] || fail "punch hole or zero range changed the size"
cp "$scratch/orig" "$scratch/want"
dd if=/dev/zero of="$scratch/want" bs=1 seek=4000 count=65536 conv=notrunc status=none
dd if=/dev/zero of="$scratch/want" bs=1 seek=100000 count=50000 conv=notrunc status=none
echo 3 >/proc/sys/vm/drop_caches
cmp "$scratch/want" "$mnt/p" || fail "after punch hole and zero range the file reads wrong"
rm "$mnt/a" "$mnt/r" "$mnt/p"
(( $(avail) == total )) || fail "empty tree: $(avail) of $total blocks free"
unmount_stack
echo ok
