#!/usr/bin/env bash
# The control socket: mode 0600, every command answered in one line, bad
# ones answered with an error that changes nothing; fail makes a member
# answer EIO, replace brings it back; stats are written on `stats` and at exit.
source "$(dirname "$0")/lib.sh"
requires nbdinfo nbdcopy python3
ctl=$tmp/ctl
start_server "$STORLAB_PLUGIN" "stack=$STORLAB_SOURCE_DIR/tests/serve/stacks/mirror.toml" \
  "control=$ctl" "stats=$tmp/stats.json"
wait_for "$ctl"
[[ $(stat -c %a "$ctl") == 600 ]] || fail "control socket mode $(stat -c %a "$ctl")"
head -c $((1 << 20)) /dev/urandom >"$tmp/data"
nbdcopy "$tmp/data" "$(uri_of md)"
"$NBD_CLIENT" control "$ctl" help bogus "fail" "fail nosuch" "flush now" flush \
  "replace disk.0" "fail disk.1" "fail disk.1" stats reset-stats >"$tmp/answers"
cat "$tmp/answers"
mapfile -t a <"$tmp/answers"
[[ ${a[0]} == commands:* ]] || fail "help: ${a[0]}"
[[ ${a[1]} == "error: control: unknown command 'bogus'"* ]] || fail "bogus: ${a[1]}"
[[ ${a[2]} == "error: control: fail: expected one node name"* ]] || fail "fail: ${a[2]}"
[[ ${a[3]} == "error: fail: no node 'nosuch'"* ]] || fail "fail nosuch: ${a[3]}"
[[ ${a[4]} == "error: control: flush takes no argument"* ]] || fail "flush now: ${a[4]}"
[[ ${a[5]} == "flush: ok (3 exports flushed)" ]] || fail "flush: ${a[5]}"
[[ ${a[6]} == "error: replace: 'disk.0' has not failed"* ]] || fail "replace: ${a[6]}"
[[ ${a[7]} == "fail: 'disk.1' has failed"* ]] || fail "fail disk.1: ${a[7]}"
[[ ${a[8]} == "error: fail: 'disk.1' has already failed" ]] || fail "fail again: ${a[8]}"
[[ ${a[9]} == '{"service":'* ]] || fail "stats: ${a[9]:0:80}"
[[ ${a[10]} == "reset-stats: ok" ]] || fail "reset-stats: ${a[10]}"
[[ -s $tmp/stats.json ]] || fail "stats file not written on 'stats'"
# The failed member answers EIO; the mirror still serves the data.
if nbdcopy "$(uri_of disk.1)" - >/dev/null 2>&1; then fail "disk.1 still answered"; fi
nbdcopy "$(uri_of md)" "$tmp/md.img"
cmp -n $((1 << 20)) "$tmp/md.img" "$tmp/data" || fail "md lost data"
answer=$("$NBD_CLIENT" control "$ctl" "replace disk.1")
[[ $answer == "replace: 'disk.1' is back"* ]] || fail "replace: $answer"
stop_server
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["service"]["exports"][0]["name"] == "md"' \
  "$tmp/stats.json" || fail "the stats file written at exit is not the stats"
[[ ! -e $ctl ]] || fail "the control socket was left behind"
echo "ok: control socket: every command, bad ones, fail/replace, stats"
