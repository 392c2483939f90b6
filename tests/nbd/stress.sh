#!/usr/bin/env bash
# 16 connections × queue depth 64 against one stack, every write verified
# (xxhash), for STRESS_SECONDS (20 in the TSan step, 3 otherwise): the
# service and the plugin under as much concurrency as the machine gives.
source "$(dirname "$0")/lib.sh"
requires fio
seconds=${STRESS_SECONDS:-3}
start_server --threads 64 -- "$STORLAB_PLUGIN" stack=nvme-gen3
cat >"$tmp/job.fio" <<JOB
[global]
ioengine=nbd
uri=$uri
direct=1
rw=randwrite
bs=4k
iodepth=64
numjobs=16
size=8m
offset_increment=8m
time_based
runtime=$seconds
verify=xxhash
verify_backlog=512
verify_fatal=1
group_reporting
[stress]
JOB
fio --output-format=json --output="$tmp/fio.json" "$tmp/job.fio" || fail "fio failed"
[[ $(json_get "$tmp/fio.json" "d['jobs'][0]['error']") == 0 ]] || fail "fio reported an error"
echo "ok: $(json_get "$tmp/fio.json" "d['jobs'][0]['write']['total_ios']") writes by 16 connections at QD64, verified"
stop_server
