#!/usr/bin/env bash
# The NBD export's fidelity and ceiling, measured in one run (these machines
# are noisy: compare ratios from the same run, never figures across runs).
#
#   bash bench/nbd_fidelity.sh [--seconds N] [--build DIR] [--stacks "a b"] [--out FILE]
#                              [--plugin-arg KEY=VALUE]... [--only fidelity|ceiling] [--rounds N]
#
# Fidelity: for each stack, fio's nbd engine through `nbdkit storlab` against
# the same job in `storlab sim --direct=1` (virtual time): 4K random read at
# QD1 and QD32, 4K random write at QD1, 1M sequential write at QD4, over the
# first GiB (written once first, as storlab sim lays the file out). Printed:
# IOPS over NBD / IOPS simulated, median latency over NBD / simulated, and
# the real-time driver's lateness and inbox wait (p50/p99) in that job, and
# the CPU the hypervisor stole meanwhile (bench/cpu_steal.sh: above a few
# per cent, the ratios measure the host's contention, not storlab). First,
# the transport's floor: every job through `nbdkit memory` (no device);
# each row gives how many times slower the model is than that floor
# (sim/floor: at QD1 the model's median latency over the floor's, deeper
# the floor's IOPS over the model's): near 1 or below, the row measures
# the transport, not the model.
# Where the model answers a read in under a millisecond, its QD1 read job
# through bench/nbd_sleep_plugin.c sleeping the model's median (what any
# plugin that blocks for the device's latency delivers, uncompensated).
# The anchor: nbdkit's own delay filter at 1 ms (memory plugin) against the
# ideal, next to storlab's `ram` with a 1 ms latency through the same path.
# Ceiling: storlab's `ram` stack against `nbdkit memory`, 4K random read
# QD32 and 1M sequential read QD8: ours / theirs, with the oracle (the
# default) and without (oracle=false: nbdkit memory's own work, the
# like-for-like figure), in N rounds (default 3) of fresh servers, the order
# reversed every other round, so that the machine's drift within a run
# (these VMs' speed moves by a third within the hour) falls on both sides:
# each round's ratio and their median. And nvme-gen3 through NBD.
# HALT_POLL_NS=N in the environment: idle vCPUs poll N ns before they
# halt, for the run (bench/halt_poll.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=20 build=build/release out= only= rounds=3
plugin_args=()
stacks="hdd-7200 sata-ssd usb3-bot-hdd sata-ssd-dramless nas-1gbe-raid5"
while (($#)); do
  case $1 in
    --seconds) seconds=$2; shift ;;
    --build) build=$2; shift ;;
    --stacks) stacks=$2; shift ;;
    --out) out=$2; shift ;;
    --plugin-arg) plugin_args+=("$2"); shift ;;
    --only) only=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    *) sed -n '2,34s/^# \{0,1\}//p' "$0"; exit 2 ;;
  esac
  shift
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "--rounds: a positive integer, not '$rounds'" >&2; exit 2; }
[[ -z $only || $only == fidelity || $only == ceiling ]] || { echo "--only: fidelity or ceiling, not '$only'" >&2; exit 2; }
[[ $build == /* ]] || build=$PWD/$build
plugin=$build/nbd/nbdkit-storlab-plugin.so
storlab=$build/cli/storlab
[[ -x $storlab && -f $plugin ]] || { echo "build first: ninja -C $build storlab nbdkit-storlab-plugin" >&2; exit 2; }
for t in nbdkit fio python3; do command -v $t >/dev/null || { echo "needs $t" >&2; exit 2; }; done
source bench/cpu_steal.sh
source bench/halt_poll.sh
tmp=$(mktemp -d)
# bench/nbd_sleep_plugin.c, for the QD1 reference below (needs gcc).
sleep_plugin=
if command -v gcc >/dev/null && gcc -O2 -fPIC -shared -o "$tmp/sleep.so" bench/nbd_sleep_plugin.c; then
  sleep_plugin=$tmp/sleep.so
else
  echo "(no gcc, or nbdkit-plugin-dev missing: the sleeping plugin's rows are left out)"
fi
server=
trap '[[ -n $server ]] && kill $server 2>/dev/null; rm -rf "$tmp"; halt_poll_restore' EXIT
halt_poll_apply

# serve ARGS...: nbdkit on $tmp/sock with 64 threads per connection.
serve() {
  rm -f "$tmp/sock"
  nbdkit -f -U "$tmp/sock" --threads 64 "$@" >"$tmp/server.log" 2>&1 &
  server=$!
  for _ in $(seq 200); do [[ -S $tmp/sock ]] && return; sleep 0.05; done
  cat "$tmp/server.log" >&2
  exit 1
}
unserve() { kill $server; wait $server 2>/dev/null || true; server=; }
ctl() { python3 - "$tmp/ctl" "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode()); f = s.makefile()
print(f.readline().strip())
PY
}

# job NAME RW BS QD: a fio job file on stdout (the engine's lines after).
job() {
  printf '[global]\ndirect=1\nsize=1g\ntime_based\nruntime=%s\nrandrepeat=1\n' "$seconds"
  printf '[%s]\nrw=%s\nbs=%s\niodepth=%s\n' "$1" "$2" "$3" "$4"
}
jobs=("randread-qd1 randread 4k 1" "randread-qd32 randread 4k 32"
      "randwrite-qd1 randwrite 4k 1" "seqwrite-qd4 write 1m 4")

# fio_nbd NAME RW BS QD: the job over NBD, JSON in $tmp/NAME.nbd.json.
fio_nbd() {
  { job "$@"; printf 'ioengine=nbd\nuri=nbd+unix:///?socket=%s\n' "$tmp/sock"; } >"$tmp/$1.fio"
  fio --output-format=json --output="$tmp/$1.nbd.json" "$tmp/$1.fio" >/dev/null
}

[[ $only == ceiling ]] && stacks=
# The first GiB written once and flushed (every server below gets it first).
{ printf '[global]\ndirect=1\nsize=1g\n[prep]\nrw=write\nbs=1m\niodepth=4\nend_fsync=1\n'
  printf 'ioengine=nbd\nuri=nbd+unix:///?socket=%s\n' "$tmp/sock"; } >"$tmp/prep.fio"
if [[ -n $stacks ]]; then
  # The transport's own floor: the QD1 jobs through `nbdkit memory` (no
  # device, no storlab). A model whose latency is not well above it cannot
  # be told from the transport at QD1: its rows show the transport.
  serve memory size=1G
  fio "$tmp/prep.fio" >/dev/null
  for j in "${jobs[@]}"; do
    set -- $j
    fio_nbd "floor-$1" "$2" "$3" "$4"
  done
  unserve
  python3 - "$tmp" "${jobs[@]}" <<'PY'
import json, sys
for spec in sys.argv[2:]:
    name, rw, bs, qd = spec.split()
    j = json.load(open("%s/floor-%s.nbd.json" % (sys.argv[1], name)))["jobs"][0]
    d = j["read"] if j["read"]["io_bytes"] else j["write"]
    print("transport floor (nbdkit memory, %s %s QD%s): %.0f IOPS, median %.1f us, mean %.1f us" % (
        bs, rw, qd, d["iops"], d["clat_ns"]["percentile"]["50.000000"] / 1e3, d["clat_ns"]["mean"] / 1e3))
PY
  python3 -c 'print("%-18s %-14s %9s %9s %6s %9s %9s %6s %15s %15s %5s %9s" % ("stack", "job", "IOPS nbd", "sim", "ratio", "p50 nbd", "sim", "ratio", "lateness p50/99", "inbox p50/99", "steal", "sim/floor"))'
fi
for stack in $stacks; do
  serve "$plugin" "stack=$stack" store=none "control=$tmp/ctl" "stats=$tmp/stats.json" \
    "${plugin_args[@]}"
  # Written once and flushed, as storlab sim lays out the file (a flush at
  # its end): a drive cache still holding the last writes would serve reads.
  fio "$tmp/prep.fio" >/dev/null
  for j in "${jobs[@]}"; do
    set -- $j
    ctl reset-stats >/dev/null
    cpu_mark
    fio_nbd "$@"
    steal=$(cpu_steal_percent)
    ctl stats >"$tmp/$1.stats.json"
    job "$@" | sed "s/^\[global\]/[global]\nioengine=libaio/" >"$tmp/$1.sim.fio"
    "$storlab" sim --stack "$stack" --direct=1 --output-format=json "$tmp/$1.sim.fio" \
      >"$tmp/$1.sim.json" 2>/dev/null
    python3 - "$stack" "$1" "$tmp/$1.nbd.json" "$tmp/$1.sim.json" "$tmp/$1.stats.json" "$steal" \
      "$tmp/floor-$1.nbd.json" "$4" <<'PY'
import json, sys
stack, name, nbd, sim, st, steal, floor, qd = sys.argv[1:9]
def fig(path):
    j = json.load(open(path))["jobs"][0]
    d = j["read"] if j["read"]["io_bytes"] else j["write"]
    return d["iops"], d["clat_ns"]["percentile"]["50.000000"] / 1e3
n, s = fig(nbd), fig(sim)
drv = json.load(open(st))["service"]["driver"]
p = lambda h, q: h["percentile"][q] / 1e3
# How many times slower the model is than the bare transport: at QD1 its
# median latency over the floor's; deeper, the floor's IOPS over its own.
f = fig(floor)
margin = "%.2f" % (s[1] / f[1] if qd == "1" else f[0] / s[0])
print("%-18s %-14s %9.0f %9.0f %6.3f %7.1fus %7.1fus %6.3f %7.1f/%-7.1f %7.1f/%-7.1f %4s%% %9s" % (
    stack, name, n[0], s[0], n[0] / s[0], n[1], s[1], n[1] / s[1],
    p(drv["lateness_ns"], "50.000000"), p(drv["lateness_ns"], "99.000000"),
    p(drv["inbox_wait_ns"], "50.000000"), p(drv["inbox_wait_ns"], "99.000000"), steal, margin))
PY
  done
  unserve
  # A plugin that only sleeps the model's median read latency (no
  # compensation): what blocking for it costs any nbdkit plugin here.
  sim_us=$(python3 -c 'import json, sys; print("%.0f" % (json.load(open(sys.argv[1]))["jobs"][0]["read"]["clat_ns"]["percentile"]["50.000000"] / 1e3))' "$tmp/randread-qd1.sim.json")
  if [[ -n $sleep_plugin ]] && ((sim_us < 1000)); then
    serve "$sleep_plugin" "us=$sim_us"
    fio_nbd sleeper randread 4k 1
    unserve
    python3 - "$sim_us" "$tmp/sleeper.nbd.json" "$tmp/randread-qd1.sim.json" <<'PY'
import json, sys
us, nbd, sim = sys.argv[1:4]
def fig(path):
    d = json.load(open(path))["jobs"][0]["read"]
    return d["iops"], d["clat_ns"]["percentile"]["50.000000"] / 1e3
n, s = fig(nbd), fig(sim)
print("%-18s %-14s %9.0f %9.0f %6.3f %7.1fus %7.1fus %6.3f" % (
    "  sleeping %sus" % us, "randread-qd1", n[0], s[0], n[0] / s[0], n[1], s[1], n[1] / s[1]))
PY
  fi
done

[[ $only == fidelity ]] && exit 0
if [[ $only != ceiling ]]; then
echo
echo "anchor: a fixed 1 ms per request, 4K random read (ideal: 1000 IOPS at QD1, 32000 at QD32)"
cpu_mark
cat >"$tmp/ms.toml" <<'EOF'
[node.ram]
type = "ram"
capacity = "1GiB"
latency = "1ms"
queue_depth = 64
EOF
for who in delay storlab; do
  if [[ $who == delay ]]; then
    serve --filter=delay memory size=1G rdelay=1ms wdelay=1ms
  else
    serve "$plugin" "stack=$tmp/ms.toml" store=none "${plugin_args[@]}"
  fi
  for qd in 1 32; do
    fio_nbd "ms-qd$qd" randread 4k $qd
    python3 - "$who" "$qd" "$tmp/ms-qd$qd.nbd.json" <<'PY'
import json, sys
who, qd, f = sys.argv[1], int(sys.argv[2]), sys.argv[3]
iops = json.load(open(f))["jobs"][0]["read"]["iops"]
label = "nbdkit --filter=delay 1ms" if who == "delay" else "storlab ram latency=1ms"
print("  %-28s QD%-3d %8.0f IOPS  %+6.1f%% of ideal" % (label, qd, iops, 100 * (iops / (1000 * qd) - 1)))
PY
  done
  unserve
done

echo "  (CPU steal during the anchor runs: $(cpu_steal_percent)%)"
echo
fi
echo "ceiling: storlab's ram stack / nbdkit memory (same job, fio nbd engine; $rounds rounds," \
  "each server fresh, the order reversed every other round: per-round ratios, then their median)"
cpu_mark
order=(memory storlab no-oracle)
for ((r = 0; r < rounds; r++)); do
  for ((i = 0; i < 3; i++)); do
    who=${order[i]}
    ((r % 2)) && who=${order[2 - i]}
    case $who in
      memory) serve memory size=8G ;;
      storlab) serve "$plugin" stack=ram store=memory "${plugin_args[@]}" ;;
      no-oracle) serve "$plugin" stack=ram store=memory oracle=false "${plugin_args[@]}" ;;
    esac
    fio_nbd "ceil-4k-$who-$r" randread 4k 32
    fio_nbd "ceil-1m-$who-$r" read 1m 8
    unserve
  done
done
python3 - "$tmp" "$rounds" <<'PY'
import json, os, statistics, sys
t, rounds = sys.argv[1], int(sys.argv[2])
def f(n, key):
    j = json.load(open(os.path.join(t, n + ".nbd.json")))["jobs"][0]["read"]
    return j[key]
for job, key, unit, scale in (("4k", "iops", "IOPS", 1), ("1m", "bw_bytes", "MB/s", 1e-6)):
    name = "random read QD32" if job == "4k" else "sequential read QD8"
    for who, label in (("storlab", "storlab ram"), ("no-oracle", "  oracle=false")):
        ratios = []
        for r in range(rounds):
            m, s = f("ceil-%s-memory-%d" % (job, r), key), f("ceil-%s-%s-%d" % (job, who, r), key)
            ratios.append(s / m)
            print("  %s %-22s round %d: nbdkit memory %10.0f %s, %-13s %10.0f %s: ours/theirs %.3f" % (
                job, name, r + 1, m * scale, unit, label, s * scale, unit, s / m))
        print("  %s %-22s %-13s ours/theirs, median of %d rounds: %.3f" % (
            job, name, label, rounds, statistics.median(ratios)))
PY

echo "  (CPU steal during the ceiling runs: $(cpu_steal_percent)%)"
[[ $only == ceiling ]] && exit 0
echo
echo "nvme-gen3 through NBD (the model is faster than the transport)"
serve "$plugin" stack=nvme-gen3 store=none "${plugin_args[@]}"
fio_nbd nvme-qd32 randread 4k 32
unserve
job nvme-qd32 randread 4k 32 | sed "s/^\[global\]/[global]\nioengine=libaio/" >"$tmp/nvme.sim.fio"
"$storlab" sim --stack nvme-gen3 --direct=1 --output-format=json "$tmp/nvme.sim.fio" >"$tmp/nvme.sim.json" 2>/dev/null
python3 - "$tmp/nvme-qd32.nbd.json" "$tmp/nvme.sim.json" <<'PY'
import json, sys
n = json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"]
s = json.load(open(sys.argv[2]))["jobs"][0]["read"]["iops"]
print("  4K random read QD32: %.0f IOPS over NBD, %.0f simulated (%.2f)" % (n, s, n / s))
PY
[[ -n $out ]] && cp "$tmp/server.log" "$out.server.log" || true
