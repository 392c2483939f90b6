#!/usr/bin/env bash
# What a request that waits for its answer costs the NBD export: fio's nbd
# engine, 4K random read at QD32 and QD1, against storlab stacks through
# the plugin of one or two builds (before/after, in one run), and against
# two references with no model behind them: `nbdkit memory` (answers at
# once) and bench/nbd_sleep_plugin.c (sleeps a fixed time in the asking
# thread, as any blocking plugin does).
#
#   bash bench/nbd_blocking.sh [--seconds N] [--build DIR]... [--stacks "a b"]
#                              [--sleep "37 63"]
#
# Per job: IOPS and median latency over NBD, the same job in `storlab sim
# --direct=1` and the ratios; nbdkit's context switches and CPU per request
# (perf stat, when perf is installed); the service's driver counters per
# request and the hand-back (docs/nbd.md, "Stats"). Each stack is laid out
# once first (1 MiB writes, then a flush), as storlab sim does. Compare
# figures of one run only: these machines are noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=10 stacks="ram nvme-gen3 sata-ssd" sleeps="37" builds=()
while (($#)); do
  case $1 in
    --seconds) seconds=$2; shift ;;
    --build) builds+=("$2"); shift ;;
    --stacks) stacks=$2; shift ;;
    --sleep) sleeps=$2; shift ;;
    *) sed -n '2,17s/^# \{0,1\}//p' "$0"; exit 2 ;;
  esac
  shift
done
((${#builds[@]})) || builds=(build/release)
for t in nbdkit fio python3 gcc; do command -v $t >/dev/null || { echo "needs $t" >&2; exit 2; }; done
tmp=$(mktemp -d)
server=
trap '[[ -n $server ]] && kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
gcc -O2 -fPIC -shared -o "$tmp/sleep.so" bench/nbd_sleep_plugin.c
storlab=
for b in "${builds[@]}"; do
  [[ -f $b/nbd/nbdkit-storlab-plugin.so ]] || { echo "no plugin in $b: ninja -C $b nbdkit-storlab-plugin" >&2; exit 2; }
  [[ -z $storlab && -x $b/cli/storlab ]] && storlab=$PWD/$b/cli/storlab
done
[[ -n $storlab ]] || { echo "no storlab binary in ${builds[*]}" >&2; exit 2; }

# run LABEL STACK QD NBDKIT-ARGS...: one fio job against a fresh server
# (STACK: the storlab stack, laid out first and simulated; "" for none).
run() {
  local label=$1 stack=$2 qd=$3; shift 3
  rm -f "$tmp/sock" "$tmp/stats.json"
  nbdkit -f -U "$tmp/sock" --threads 64 "$@" >"$tmp/server.log" 2>&1 &
  server=$!
  for _ in $(seq 200); do [[ -S $tmp/sock ]] && break; sleep 0.05; done
  local uri="nbd+unix:///?socket=$tmp/sock"
  if [[ -n $stack ]]; then
    printf '[global]\ndirect=1\nsize=1g\n[prep]\nrw=write\nbs=1m\niodepth=4\nend_fsync=1\nioengine=nbd\nuri=%s\n' "$uri" >"$tmp/prep.fio"
    fio "$tmp/prep.fio" >/dev/null
    python3 - "$tmp/ctl" <<'PY' >/dev/null
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b"reset-stats\n"); s.makefile().readline()
PY
  fi
  printf '[global]\ndirect=1\nsize=1g\ntime_based\nruntime=%s\nrandrepeat=1\n[r]\nrw=randread\nbs=4k\niodepth=%s\n' "$seconds" "$qd" >"$tmp/job.fio"
  { cat "$tmp/job.fio"; printf 'ioengine=nbd\nuri=%s\n' "$uri"; } >"$tmp/nbd.fio"
  : >"$tmp/perf.txt"
  local perf=
  if command -v perf >/dev/null; then
    perf stat -x, -e context-switches,task-clock -p $server -o "$tmp/perf.txt" & perf=$!
  fi
  fio --output-format=json --output="$tmp/nbd.json" "$tmp/nbd.fio" >/dev/null
  [[ -n $perf ]] && { kill -INT $perf; wait $perf 2>/dev/null || true; }
  kill $server; wait $server 2>/dev/null || true; server=
  rm -f "$tmp/ctl"
  : >"$tmp/sim.json"
  if [[ -n $stack ]]; then
    sed 's/^\[global\]/[global]\nioengine=libaio/' "$tmp/job.fio" >"$tmp/sim.fio"
    "$storlab" sim --stack "$stack" --direct=1 --output-format=json "$tmp/sim.fio" >"$tmp/sim.json" 2>/dev/null
  fi
  python3 - "$label" "$qd" "$tmp" <<'PY'
import csv, json, os, sys
label, qd, t = sys.argv[1], sys.argv[2], sys.argv[3]
def fig(path):
    j = json.load(open(path))["jobs"][0]["read"]
    return j["iops"], j["clat_ns"]["percentile"]["50.000000"] / 1e3, j["total_ios"]
iops, p50, ios = fig(t + "/nbd.json")
line = "%-34s QD%-2s %8.0f IOPS p50 %7.1fus" % (label, qd, iops, p50)
if os.path.getsize(t + "/sim.json"):
    si, sp, _ = fig(t + "/sim.json")
    line += " | sim %8.0f %7.1fus | ratio %.3f / %.3f" % (si, sp, iops / si, p50 / sp)
perf = {}
for row in csv.reader(l for l in open(t + "/perf.txt") if l.strip() and not l.startswith("#")):
    try: perf[row[2]] = float(row[0])
    except (IndexError, ValueError): pass
if perf:
    line += " | nbdkit %.2f cs, %.1f us CPU a request" % (
        perf.get("context-switches", 0) / ios, perf.get("task-clock", 0) * 1e3 / ios)
print(line)
if os.path.exists(t + "/stats.json"):
    s = json.load(open(t + "/stats.json"))["service"]
    d, n = s["driver"], max(s["requests"]["completed"], 1)
    p = lambda h, q: h["percentile"][q] / 1e3
    out = "    lateness p50/p99 %.1f/%.1fus, inbox %.1f/%.1fus" % (
        p(d["lateness_ns"], "50.000000"), p(d["lateness_ns"], "99.000000"),
        p(d["inbox_wait_ns"], "50.000000"), p(d["inbox_wait_ns"], "99.000000"))
    if "sleeps" in d:
        out += "; a request: " + " ".join("%s %.2f" % (k, d[k] / n) for k in (
            "posted", "run_here", "sleeps", "woken_early", "run_here_wakes"))
        out += "; hand-back p50/p99 %.1f/%.1fus (%d)" % (
            p(s["hand_back_ns"], "50.000000"), p(s["hand_back_ns"], "99.000000"), s["hand_backs"])
    print(out)
PY
}

echo "# $(date -u '+%F %T') load $(cut -d' ' -f1-3 /proc/loadavg), ${seconds}s a job"
for stack in $stacks; do
  for qd in 32 1; do
    for b in "${builds[@]}"; do
      run "$stack ($b)" "$stack" $qd "$PWD/$b/nbd/nbdkit-storlab-plugin.so" "stack=$stack" store=none \
        "stats=$tmp/stats.json" "control=$tmp/ctl"
    done
  done
done
for qd in 32 1; do
  run "nbdkit memory" "" $qd memory size=8G
  for us in $sleeps; do run "nbd_sleep_plugin us=$us" "" $qd "$tmp/sleep.so" us=$us; done
done
echo "# end $(date -u '+%T') load $(cut -d' ' -f1-3 /proc/loadavg)"
