#!/usr/bin/env bash
# .storlab/control: every command, and bad ones (EINVAL, nothing changes);
# the files' owner-only permissions; stats.json is live.
source "$(dirname "$0")/functions.sh" "$@"
daemon=1  # the daemon a user gets (fuse_daemonize), unmounted by storlab umount
mount_stack --stack "$here/../serve/stacks/mirror.toml"
ctl=$mnt/.storlab/control
[[ $(stat -c %a "$ctl") == 600 ]] || fail "control is $(stat -c %a "$ctl"), not 600"
[[ $(stat -c %a "$mnt/.storlab/stats.json") == 444 ]] || fail "stats.json is not 444"
[[ $(stat -c %u "$ctl") == "$EUID" ]] || fail "control is not the mounting user's"
ls "$mnt" | grep -qx md.img || fail "no md.img"
ls "$mnt" | grep -qx disk.1.img || fail "no disk.1.img"
echo hi | dd of="$mnt/md.img" bs=512 count=1 conv=sync,notrunc oflag=direct status=none
control help | grep -q power-cut || fail "help"
control flush | grep -q "^flush: ok (3 exports flushed)" || fail "flush"
control stats | python3 -c 'import json,sys; json.load(sys.stdin)' || fail "stats is not JSON"
(( $(stat_json 'j["service"]["requests"]["submitted"]') > 0 )) || fail "stats.json: no requests"
# cp copies it whole though its text grows between stat and read (cp took
# a file of 0 blocks for sparse and stopped at the size stat gave).
(( $(stat -c '%b * %B >= %s' "$mnt/.storlab/stats.json") )) || fail "stats.json looks sparse"
cp "$mnt/.storlab/stats.json" "$scratch/copy.json"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$scratch/copy.json" || fail "cp of stats.json is not JSON"
control reset-stats | grep -q ok || fail "reset-stats"
[[ $(stat_json 'j["service"]["requests"]["submitted"]') == 0 ]] || fail "reset-stats did not reset"
control fail disk.0 | grep -q "has failed" || fail "fail"
dd if="$mnt/disk.0.img" of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null &&
  fail "a read of a failed disk succeeded"
dd if="$mnt/md.img" of=/dev/null bs=4k count=1 iflag=direct status=none || fail "md read with one member failed"
control replace disk.0 | grep -q "back in its slot" || fail "replace"
control power-cut | grep -q "0 violations" || fail "power-cut: $(cat "$ctl")"
# Bad commands: EINVAL, an error answer, and nothing changed.
before=$(stat_json 'j["service"]["power_cuts"]')
for bad in bogus "fail nosuchnode" "replace disk.1" "power-cut now" "" "fail" $'\x01\x02'; do
  if echo "$bad" >"$ctl" 2>"$scratch/err"; then fail "bad command '$bad' was accepted"; fi
  grep -q "Invalid argument" "$scratch/err" || fail "'$bad': not EINVAL: $(cat "$scratch/err")"
  grep -q "^error:" "$ctl" || fail "'$bad': no error answer"
done
[[ $(stat_json 'j["service"]["power_cuts"]') == "$before" ]] || fail "a bad command changed something"
dd if="$mnt/disk.1.img" of=/dev/null bs=4k count=1 iflag=direct status=none || fail "disk.1 broke"
# The files of .storlab cannot be removed, renamed or written otherwise.
rm -f "$mnt/.storlab/stats.json" 2>/dev/null && fail "stats.json was removed"
(echo x >"$mnt/.storlab/stats.json") 2>/dev/null && fail "stats.json was written"
unmount_stack
echo ok
