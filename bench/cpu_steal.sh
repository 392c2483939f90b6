# Sourced by the real-time benchmarks: how much CPU the hypervisor took
# from this machine during a job. On a virtual machine whose host is
# contended, "steal" (the 8th field of /proc/stat's cpu line: time a vCPU
# was runnable but the host ran something else; proc(5)) delays every
# timed wake-up of the real-time driver and every NBD or FUSE round trip:
# a fidelity ratio measured at more than a few per cent steal measures the
# host, not storlab. Each benchmark prints it beside its figures.
#
#   cpu_mark            remember the counters now
#   cpu_steal_percent   steal since cpu_mark, as a percentage of all CPU time

cpu_mark() { read -r _ cpu_marked </proc/stat; }

cpu_steal_percent() {
  local now
  read -r _ now </proc/stat
  python3 - "$cpu_marked" "$now" <<'PY'
import sys
a, b = ([int(x) for x in s.split()] for s in sys.argv[1:3])
d = [y - x for x, y in zip(a, b)]
total = sum(d[:8])  # user nice system idle iowait irq softirq steal
print("%.0f" % (100.0 * d[7] / total if total else 0.0))
PY
}
