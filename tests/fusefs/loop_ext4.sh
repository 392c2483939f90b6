#!/usr/bin/env bash
# An image under a loop device (losetup --direct-io=on) carrying ext4:
# mkfs, mount, write, sync, drop caches, read back, umount, e2fsck -fn.
source "$(dirname "$0")/functions.sh" "$@"
requires mkfs.ext4
requires e2fsck
requires losetup
mount_stack --stack "$here/stacks/lb4k.toml"
loop=$(new_loop "$mnt/ram.img")
[[ $(cat /sys/block/${loop#/dev/}/loop/dio) == 1 ]] || fail "losetup --direct-io=on did not take"
mkfs.ext4 -q -F "$loop" || fail "mkfs.ext4"
mount_fs "$loop" "$scratch/fs"
head -c 8M /dev/urandom >"$scratch/data"
cp "$scratch/data" "$scratch/fs/data"
mkdir -p "$scratch/fs/dir"
for i in $(seq 1 50); do echo "file $i" >"$scratch/fs/dir/f$i"; done
sync
drop_caches
cmp "$scratch/data" "$scratch/fs/data" || fail "data read back differs"
[[ $(cat "$scratch/fs/dir/f37") == "file 37" ]] || fail "small file read back differs"
umount_fs "$scratch/fs"
e2fsck -fn "$loop" >"$scratch/fsck.out" 2>&1 || { cat "$scratch/fsck.out"; fail "e2fsck -fn"; }
drop_loop "$loop"
[[ $(stat_json "$answered") == True ]] || fail "requests left unanswered"
unmount_stack
echo ok
