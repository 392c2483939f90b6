#!/usr/bin/env bash
# A power cut while a QD32 direct writer is in flight on a slow disk (250 ms
# a request, so that requests are still inside the model in the sanitizer
# builds too): every request in flight gets EIO (one answer each, fio sees
# the errors), the oracle finds no violation, and the mount goes on serving.
source "$(dirname "$0")/functions.sh" "$@"
requires fio
mount_stack --stack "$here/stacks/slow-ram.toml" --direct-io
img=$mnt/ram.img
fio --name=cut --filename="$img" --rw=randwrite --bs=64k --size=64m --iodepth=32 \
  --ioengine=libaio --direct=1 --runtime=2 --time_based --continue_on_error=io \
  --output-format=terse >"$scratch/fio.out" 2>&1 &
fio_pid=$!
# Cut once the writer has requests inside the model: fio's start takes more
# than a second on a loaded machine, and a cut before it finds none.
for _ in $(seq 200); do
  (($(stat_json 'j["service"]["exports"][0]["in_flight"]') > 0)) && break
  sleep 0.1
done
answer=$(control power-cut)
wait "$fio_pid" || true
echo "$answer"
n=$(sed -E 's/^power-cut: ([0-9]+) requests.*/\1/' <<<"$answer")
((n > 0)) || fail "no request was in flight at the cut"
grep -q "0 violations" <<<"$answer" || fail "violations after the cut"
[[ $(stat_json "$answered") == True ]] || fail "requests left unanswered"
errors=$(awk -F';' '{print $5}' "$scratch/fio.out" | tail -1)
[[ -n $errors && $errors != 0 ]] || fail "fio saw no error (terse: $(tail -1 "$scratch/fio.out"))"
dd if="$img" of=/dev/null bs=64k count=2 iflag=direct status=none || fail "no reads after the cut"
unmount_stack
echo "ok: $n requests in flight answered with EIO"
