#!/usr/bin/env bash
# nbdinfo --json shows every catalog stack's size and capabilities as the
# stack has them: size = capacity, rotational and trim from the devices,
# flush/FUA/zero/fast-zero/multi-conn always, block sizes from the device.
source "$(dirname "$0")/lib.sh"
requires nbdinfo python3
n=0
for stack in $(catalog); do
  start_server "$STORLAB_PLUGIN" "stack=$stack" store=none
  nbdinfo --json "$uri" >"$tmp/$stack.json"
  stop_server
  n=$((n + 1))
done
(( n >= 10 )) || fail "only $n catalog stacks"
# Checked in one go; expected rotational/trim from the catalog's devices.
python3 - "$tmp" <<'PY' || fail "nbdinfo showed something wrong"
import glob, json, os, sys
expect = {"hdd-7200": (True, False), "hdd-5400": (True, False), "sata-ssd": (False, True),
          "nvme-gen3": (False, True), "ram": (False, True), "usb3-bot-hdd": (True, False),
          "nas-1gbe-raid5": (True, False), "ssd-zfs": (False, True)}
bad = 0
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    stack = os.path.basename(f)[:-5]
    e = json.load(open(f))["exports"][0]
    problems = []
    if e["export-size"] <= 0: problems.append("size %d" % e["export-size"])
    for cap in ("can_flush", "can_fua", "can_zero", "can_fast_zero", "can_multi_conn"):
        if not e[cap]: problems.append(cap + " not advertised")
    lo, pref, hi = e["block_size_minimum"], e["block_size_preferred"], e["block_size_maximum"]
    if lo < 512 or lo & (lo - 1) or pref < lo or hi != 32 << 20:
        problems.append("block sizes %d/%d/%d" % (lo, pref, hi))
    if stack in expect and (e["is_rotational"], e["can_trim"]) != expect[stack]:
        problems.append("rotational/trim %s, expected %s" % ((e["is_rotational"], e["can_trim"]), expect[stack]))
    print(("FAIL: " if problems else "ok: ") + "%s: %d bytes, blocks %d/%d/%d, rotational %s, trim %s %s"
          % (stack, e["export-size"], lo, pref, hi, e["is_rotational"], e["can_trim"], "; ".join(problems)))
    bad += bool(problems)
sys.exit(1 if bad else 0)
PY
