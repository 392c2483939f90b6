#!/usr/bin/env python3
"""Prints "FILE SHA1" for every project .cc in BUILD/compile_commands.json:
the file's compile command with the build and source directories, the
output and the file itself taken out, hashed. tests/tidy.sh records these
with its base (.ci/tidy-flags) and tidies again each file whose line
changed: its findings can differ only if its flags did.

    python3 tests/tidy_flags.py BUILD SRC
"""
import hashlib
import json
import os
import shlex
import sys

FOLDERS = ("sim/", "workloads/", "cli/", "nbd/", "fusefs/")


def main():
    build, src = (os.path.realpath(p) for p in sys.argv[1:3])
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    out = {}
    for e in entries:
        path = os.path.realpath(os.path.join(e["directory"], e["file"]))
        rel = os.path.relpath(path, src)
        if not rel.startswith(FOLDERS) or not rel.endswith(".cc"):
            continue
        args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
        kept, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a == "-o":
                skip = True
                continue
            if os.path.realpath(os.path.join(e["directory"], a)) == path:
                continue
            kept.append(a.replace(build, "@BUILD").replace(src, "@SRC"))
        out[rel] = hashlib.sha1("\0".join(kept).encode()).hexdigest()
    for rel in sorted(out):
        print(rel, out[rel])


if __name__ == "__main__":
    main()
