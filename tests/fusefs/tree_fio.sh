#!/usr/bin/env bash
# Tree mode: fio --directory with 4 jobs, each its own files, verify=xxhash,
# buffered and direct; the files' data lands on the device (its stats count
# the bytes), and the tree is empty again after fio's files are removed.
source "$(dirname "$0")/functions.sh" "$@"
requires fio
mount_stack --stack sata-ssd --tree
for direct in 0 1; do
  fio --name=tree$direct --directory="$mnt" --numjobs=4 --nrfiles=2 --size=4m --bs=16k \
    --rw=randwrite --verify=xxhash --verify_fatal=1 --direct=$direct --ioengine=psync \
    --unlink=1 --output-format=terse >"$scratch/fio.out" || fail "fio direct=$direct: $(cat "$scratch/fio.out")"
done
written=$(stat_json 'j["stack"]["nodes"][0]["ops"]["write"]["bytes"]')
((written >= 2 * 4 * 4 * 1048576)) || fail "the device saw $written bytes written, not the files' 32 MiB"
[[ -z $(ls "$mnt") ]] || fail "files left: $(ls "$mnt")"
[[ $(stat_json "$answered") == True ]] || fail "requests left unanswered"
unmount_stack
echo "ok"
