# Helpers for the FUSE export's tests (tests/fusefs/*.sh), sourced by each:
#   source functions.sh "$@"     (the script's arguments: STORLAB first)
# Each test runs `storlab mount` against the real kernel, in a scratch
# folder of its own, and cleans up on any exit — loop devices detached,
# file systems and the FUSE mount unmounted — so a failing test leaves
# nothing behind. Exit 77 skips (a tool or kernel feature truly absent).
set -euo pipefail

storlab=${1:?usage: TEST.sh PATH/TO/storlab [args]}
[[ $storlab == */* ]] && storlab=$(realpath "$storlab")

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
scratch=$(mktemp -d /tmp/storlab-fusefs.XXXXXX)
mnt=$scratch/mnt
mkdir -p "$mnt"
# Tools that leave files in the working directory (fio's verify state) leave
# them in the scratch folder.
cd "$scratch"
loops=()
mounts=()

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
requires() { command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"; }

[[ -c /dev/fuse ]] || skip "no /dev/fuse"
((EUID == 0)) || skip "needs root (FUSE mounts, loop devices, sysfs)"

# Whether DIR is a mount point, also when its FUSE server is gone (then
# `mountpoint` cannot stat it).
mounted() { awk -v m="$1" '$2 == m {found = 1} END {exit !found}' /proc/self/mounts; }
cleanup() {
  local rc=$? m l i
  set +e
  # Lazily, so that nothing waits for a server that may have died.
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}"
  done
  for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
  if mounted "$mnt"; then
    fusermount3 -u "$mnt" 2>/dev/null || umount -l "$mnt"
  fi
  wait_server || rc=1
  cd /
  rm -rf "$scratch"
  exit $rc
}
trap cleanup EXIT

server_pid=
daemon=0
# mount_stack ARGS...: storlab mount ARGS $mnt. In the foreground (-f) as
# a child of the test, so that unmount_stack sees its exit status (a
# sanitizer's finding fails the test); with daemon=1 as the daemon a user
# gets, its pid taken from stats.json.
mount_stack() {
  local i
  if ((daemon)); then
    "$storlab" mount "$@" "$mnt" >"$scratch/mount.out" 2>&1 || {
      cat "$scratch/mount.out" >&2
      fail "storlab mount $* failed"
    }
    server_pid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["mount"]["pid"])' \
      "$mnt/.storlab/stats.json")
    return
  fi
  "$storlab" mount -f "$@" "$mnt" >"$scratch/mount.out" 2>&1 &
  server_pid=$!
  for ((i = 0; i < 600; i++)); do
    [[ -e $mnt/.storlab/stats.json ]] && return 0
    kill -0 "$server_pid" 2>/dev/null || { cat "$scratch/mount.out" >&2; fail "storlab mount $* failed"; }
    sleep 0.05
  done
  fail "storlab mount $* did not come up in 30 s"
}
# Waits for the server to exit; with a foreground server, returns 1 (and
# says why) unless it exited with 0. Runs in this shell, never a subshell:
# only the shell that started the server can wait for it.
wait_server() {
  local i rc
  [[ -n $server_pid ]] || return 0
  if ((!daemon)); then
    rc=0
    wait "$server_pid" || rc=$?
    server_pid=
    ((rc == 0)) || { cat "$scratch/mount.out" >&2; echo "FAIL: the server exited with $rc" >&2; return 1; }
    return 0
  fi
  for ((i = 0; i < 200; i++)); do kill -0 "$server_pid" 2>/dev/null || { server_pid=; return 0; }; sleep 0.05; done
  echo "server $server_pid did not exit" >&2
}
# unmount_stack: storlab umount, and the server has exited (with 0).
unmount_stack() {
  "$storlab" umount "$mnt" >"$scratch/umount.out" 2>&1 || {
    cat "$scratch/umount.out" >&2
    fail "storlab umount failed"
  }
  wait_server || exit 1
}
# control CMD: writes CMD to the control file; prints the answer; fails
# the test if the command was refused.
control() {
  echo "$*" >"$mnt/.storlab/control" || fail "control '$*' was refused: $(cat "$mnt/.storlab/control")"
  cat "$mnt/.storlab/control"
}
# stat_json EXPR: a Python expression over j = stats.json.
stat_json() {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
    "$mnt/.storlab/stats.json" "$1"
}
# new_loop FILE: a loop device on FILE with direct I/O; remembered.
new_loop() {
  local l
  l=$(losetup --direct-io=on --show -f "$1") || fail "losetup on $1"
  loops+=("$l")
  echo "$l"
}
drop_loop() {
  local l=$1 i
  losetup -d "$l"
  for i in "${!loops[@]}"; do [[ ${loops[$i]} == "$l" ]] && unset 'loops[i]'; done
  loops=("${loops[@]}")
}
# mount_fs DEV DIR [OPTS]: mounts and remembers.
mount_fs() {
  mkdir -p "$2"
  mount ${3:+-o "$3"} "$1" "$2"
  mounts+=("$2")
}
umount_fs() {
  umount "$1"
  local i
  for i in "${!mounts[@]}"; do [[ ${mounts[$i]} == "$1" ]] && unset 'mounts[i]'; done
  mounts=("${mounts[@]}")
}
drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }
# A stat_json expression: every request the service took was answered.
answered='(lambda r: r["submitted"] == r["completed"] + r["refused"])(j["service"]["requests"])'
