#!/usr/bin/env bash
# Tree mode: a small set of POSIX checks (mkdir, open, truncate, unlink,
# rmdir, rename incl. RENAME_NOREPLACE / RENAME_EXCHANGE, links), then the
# tree is emptied and no inode is left behind.
source "$(dirname "$0")/functions.sh" "$@"
requires python3
mount_stack --stack "$here/stacks/small.toml" --tree
python3 "$here/posix.py" "$mnt" || fail "posix checks"
rm -rf "${mnt:?}"/[!.]*
[[ -z $(ls "$mnt") ]] || fail "the tree is not empty"
unmount_stack
echo ok
