#!/usr/bin/env python3
"""Checks that every library and program compiles as ONE translation unit.

The release, sanitize and tsan presets build the libraries and programs as
unity batches (CMAKE_UNITY_BUILD: a few .cc files per compile). Two
file-local names that are equal (an anonymous-namespace `Bad()` in two
files of a library) then break the build, but only when CMake happens to
put both files in one batch — and the batches shift whenever a file is
added. So a clash stays hidden until an unrelated change exposes it. This
check includes ALL of a target's sources into one translation unit and
runs `-fsyntax-only` on it with the target's own flags: any clash fails
here, whatever the batches are. The test binaries (sim_tests,
workloads_tests, serve_tests) are unity builds too (tests/CMakeLists.txt);
the fuzz targets and the other programs under tests/ are skipped.

    python3 tests/unity_check.py -p BUILD_DIR [-j N]

BUILD_DIR: a configure with one file per translation unit
(CMAKE_UNITY_BUILD=OFF), as .ci/run's tidy configure; its
compile_commands.json names each file's target. Exits 1 and prints the
compiler's errors when a target fails.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile


def targets(build):
    with open(os.path.join(build, "compile_commands.json")) as f:
        db = json.load(f)
    out = {}
    for e in db:
        args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
        obj = args[args.index("-o") + 1] if "-o" in args else ""
        m = re.search(r"CMakeFiles/([^/]+)\.dir/", obj)
        src = os.path.join(e["directory"], e["file"])
        if not m:
            continue
        if "/tests/" in os.path.relpath(src, "/") and not m.group(1).endswith("_tests"):
            continue
        out.setdefault(m.group(1), []).append((src, args, e))
    return out


def check(name, entries, tmp):
    # Generated sources (the catalog's) exist only in a built tree.
    entries = sorted((x for x in entries if os.path.exists(x[0])), key=lambda x: x[0])
    unity = os.path.join(tmp, name + "_all.cc")
    with open(unity, "w") as f:
        for path, _, _ in entries:
            f.write('#include "%s"\n' % os.path.abspath(path))
    _, args, e = entries[0]
    # The first file's command with the unity file as its source, no object.
    cmd, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-c"):
            skip = a == "-o"
            continue
        if os.path.abspath(os.path.join(e["directory"], a)) == os.path.abspath(entries[0][0]):
            continue
        cmd.append(a)
    cmd += ["-fsyntax-only", unity]
    if "clang" in os.path.basename(cmd[0]):
        cmd.insert(1, "-ferror-limit=0")
    r = subprocess.run(cmd, cwd=e["directory"], capture_output=True, text=True)
    return name, len(entries), r.returncode, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-p", required=True, help="build dir with compile_commands.json")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    o = ap.parse_args()
    ts = targets(o.p)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(o.j) as ex:
        for name, n, rc, err in ex.map(lambda kv: check(kv[0], kv[1], tmp), sorted(ts.items())):
            print("unity_check: %-28s %3d files: %s" % (name, n, "ok" if rc == 0 else "FAILED"))
            if rc:
                failed += 1
                sys.stdout.write(err)
    if failed:
        print("unity_check: %d target(s) fail as one translation unit: two files share a "
              "file-local name (docs/developing.md, \"Names\"); rename one" % failed)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
