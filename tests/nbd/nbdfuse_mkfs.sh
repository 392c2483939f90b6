#!/usr/bin/env bash
# The kernel through NBD without the nbd module: nbdfuse shows the export
# as a file, losetup (direct I/O) makes it a block device, and ext4 is made,
# mounted, written, unmounted and checked clean on a simulated SSD.
source "$(dirname "$0")/lib.sh"
requires nbdinfo nbdfuse losetup mkfs.ext4 e2fsck fusermount3
[[ $EUID == 0 && -c /dev/fuse ]] || { echo "SKIP: needs root and /dev/fuse"; exit 77; }
loop= mounted=
undo() {
  [[ -n $mounted ]] && umount "$tmp/fs" 2>/dev/null
  [[ -n $loop ]] && losetup -d "$loop" 2>/dev/null
  fusermount3 -u "$tmp/nf" 2>/dev/null || true
}
trap 'rc=$?; undo; ((rc == 0)) || cat "$tmp/server.log" >&2; cleanup' EXIT
start_server "$STORLAB_PLUGIN" "stack=$STORLAB_SOURCE_DIR/tests/nbd/stacks/small-ssd.toml"
mkdir -p "$tmp/nf" "$tmp/fs"
# A handshake first: a sanitizer build's plugin is still starting its
# threads when the socket appears.
nbdinfo --size "$uri" >/dev/null || fail "nbdinfo could not connect"
nbdfuse "$tmp/nf" "$uri" &
for _ in $(seq 1200); do [[ -f $tmp/nf/nbd ]] && break; sleep 0.05; done
[[ -f $tmp/nf/nbd ]] || fail "nbdfuse did not show the export"
loop=$(losetup --direct-io=on -f --show "$tmp/nf/nbd")
mkfs.ext4 -q "$loop"  # with its whole-device discard
mount "$loop" "$tmp/fs" && mounted=1
head -c $((4 << 20)) /dev/urandom >"$tmp/data"
cp "$tmp/data" "$tmp/fs/data"
sync
umount "$tmp/fs" && mounted=
e2fsck -fn "$loop" >"$tmp/fsck.log" 2>&1 || { cat "$tmp/fsck.log"; fail "e2fsck found errors"; }
mount -o ro "$loop" "$tmp/fs" && mounted=1
cmp "$tmp/data" "$tmp/fs/data" || fail "the file read back differs"
umount "$tmp/fs" && mounted=
echo "ok: ext4 on a simulated SSD through nbdfuse and a loop device: written, fsck clean, read back"
