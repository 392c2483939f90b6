#!/usr/bin/env bash
# Trace replay from the command line (issue 17): real fio 3.33 records a
# small job on a real file with write_iolog, storlab sim replays that log
# and issues as many reads, writes and syncs as it holds; storlab sim's own
# write_iolog appends a log in fio's format, which replays the same; bad
# traces are errors naming the file and line. Skips (77) without fio.
#   tests/cli/replay_test.sh STORLAB_BINARY
set -uo pipefail
storlab=$1
command -v fio > /dev/null || { echo "SKIP: fio is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"

# Real fio's log of a real job.
fio --name=rec --directory="$tmp" --size=1m --bs=4k --rw=randrw --fsync=4 --number_ios=24 \
  --write_iolog="$tmp/fio.log" --output=/dev/null || fail "real fio run"
head -1 "$tmp/fio.log" | grep -qx 'fio version 3 iolog' || fail "fio's log: $(head -1 "$tmp/fio.log")"
json() { grep -o "\"$1\" : [0-9]*" "$tmp/rep.json" | head -"$2" | tail -1 | grep -o '[0-9]*$'; }
"$storlab" sim --stack sata-ssd --name=rep --read_iolog="$tmp/fio.log" --output-format=json \
  > "$tmp/rep.json" 2> "$tmp/rep.err" || fail "replay: $(head -c 300 "$tmp/rep.err")"
reads=$(grep -c ' read ' "$tmp/fio.log")
writes=$(grep -c ' write ' "$tmp/fio.log")
[[ $(json total_ios 1) == "$reads" ]] || fail "replayed reads $(json total_ios 1), log has $reads"
[[ $(json total_ios 2) == "$writes" ]] || fail "replayed writes $(json total_ios 2), log has $writes"
echo "replayed real fio's log: $reads reads, $writes writes"

# storlab's own log: appended per run (fio opens it with "a"), replays the same.
for _ in 1 2; do
  "$storlab" sim --stack sata-ssd --name=own --filename=/data --size=1m --rw=randwrite \
    --number_ios=16 --write_iolog="$tmp/own.log" --output-format=terse > /dev/null ||
    fail "write_iolog run"
done
[[ $(grep -c '^fio version 3 iolog$' "$tmp/own.log") == 2 ]] || fail "write_iolog does not append"
[[ $(grep -c ' /data write [0-9]* 4096$' "$tmp/own.log") == 32 ]] || fail "write_iolog lines"
"$storlab" sim --stack sata-ssd --name=rep --read_iolog="$tmp/own.log" --write_iolog="$tmp/no.log" \
  --output-format=terse > /dev/null 2> "$tmp/err" || fail "replay of storlab's log"
grep -q 'fio: read iolog overrides write_iolog' "$tmp/err" || fail "no override note"
[[ ! -e $tmp/no.log ]] || fail "write_iolog written while replaying"

# Bad traces.
printf 'fio version 2 iolog\n/f add\n/f read 0 4096\n/f erase 0 4096\n' > "$tmp/bad.log"
expect_error "bad action" "bad.log:4: bad iolog file action 'erase'" \
  "$storlab" sim --stack sata-ssd --name=b --read_iolog="$tmp/bad.log"
printf 'not a log\n' > "$tmp/v1.log"
expect_error "not a log" "v1.log:1: not a fio iolog" \
  "$storlab" sim --stack sata-ssd --name=b --read_iolog="$tmp/v1.log"
expect_error "missing" "read_iolog: cannot open" \
  "$storlab" sim --stack sata-ssd --name=b --read_iolog="$tmp/none.log"
echo "PASS"
