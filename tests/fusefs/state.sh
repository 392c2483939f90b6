#!/usr/bin/env bash
# --state DIR: what one mount wrote into an image is there after the next
# mount (the stack saved at exit, once idle, and restored at start); the
# tree mode, whose names live in memory only, refuses --state.
source "$(dirname "$0")/functions.sh" "$@"
head -c $((4 << 20)) /dev/urandom >"$scratch/in"
mount_stack --stack "$here/stacks/small.toml" --state "$scratch/state"
dd if="$scratch/in" of="$mnt/ram.img" bs=1M conv=notrunc,fsync status=none
unmount_stack
[[ -f $scratch/state/MANIFEST ]] || { cat "$scratch/mount.out" >&2; fail "no state saved at unmount"; }
mount_stack --stack "$here/stacks/small.toml" --state "$scratch/state"
cmp -n $((4 << 20)) "$scratch/in" "$mnt/ram.img" || fail "the next mount reads other data"
unmount_stack
if "$storlab" mount -f --stack "$here/stacks/small.toml" --tree --state "$scratch/state" \
    "$mnt" 2>"$scratch/tree.err"; then
  fail "--tree --state was accepted"
fi
grep -q "tree mode" "$scratch/tree.err" || fail "no reason given: $(cat "$scratch/tree.err")"
echo ok
