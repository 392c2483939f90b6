#!/usr/bin/env bash
# fio's nbd engine writes and verifies (xxhash) through one catalog stack,
# direct, at queue depth 1 and 32: what a client writes is what it reads.
#   fio_verify.sh STACK
source "$(dirname "$0")/lib.sh"
requires fio
stack=${1:?usage: fio_verify.sh STACK}
start_server --threads 64 -- "$STORLAB_PLUGIN" "stack=$stack"
cat >"$tmp/job.fio" <<JOB
[global]
ioengine=nbd
uri=$uri
direct=1
verify=xxhash
verify_fatal=1
size=2m

[qd1]
rw=write
bs=64k
iodepth=1

[qd32]
stonewall
offset=4m
rw=randwrite
bs=16k
iodepth=32
JOB
fio --output-format=json --output="$tmp/fio.json" "$tmp/job.fio" ||
  { cat "$tmp/fio.json" >&2 || true; fail "$stack: fio failed"; }
for job in 0 1; do
  err=$(json_get "$tmp/fio.json" "d['jobs'][$job]['error']")
  [[ $err == 0 ]] || fail "$stack: fio job $job error $err"
done
stop_server
echo "ok: $stack: written and verified at QD1 and QD32"
