#!/usr/bin/env bash
# Image mode, one catalog stack: fio with verify=xxhash through the image
# file, O_DIRECT (libaio, QD4) and buffered (psync), a few MB each.
#   image_fio.sh STORLAB STACK
source "$(dirname "$0")/functions.sh" "$@"
stack=${2:?usage: image_fio.sh STORLAB STACK}
requires fio
mount_stack --stack "$stack"
img=$(ls "$mnt"/*.img | head -1)
common=(--filename="$img" --size=2m --bs=64k --rw=randwrite --verify=xxhash --do_verify=1
  --verify_fatal=1 --output-format=terse --minimal)
fio --name=direct "${common[@]}" --direct=1 --ioengine=libaio --iodepth=4 --offset=1m \
  >"$scratch/direct.out" || fail "fio direct on $stack: $(cat "$scratch/direct.out")"
fio --name=buffered "${common[@]}" --direct=0 --ioengine=psync --offset=8m \
  >"$scratch/buffered.out" || fail "fio buffered on $stack: $(cat "$scratch/buffered.out")"
# Every request was answered exactly once (refused ones at once).
[[ $(stat_json "$answered") == True ]] || fail "requests left unanswered"
unmount_stack
echo "ok: $stack"
