#!/usr/bin/env python3
"""storlab sim --report: the page is self-contained and has its charts, and
headless Chromium draws it (not a blank page). Skips (77) only when chromium
is not installed.

    python3 tests/cli/report_test.py STORLAB
"""
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile
import zlib

SKIP = 77


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


class Shape(html.parser.HTMLParser):
    """Counts the elements and classes the report is made of."""

    def __init__(self):
        super().__init__()
        self.tags = {}
        self.classes = {}
        self.fetches = []  # attributes that would load something
        self.legends = []  # the charts' series names, in order
        self.points = []  # the number of points of each <polyline>
        self._in_legend = False

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        a = dict(attrs)
        self._in_legend = tag == "text" and a.get("class") == "legend"
        if tag == "polyline":
            self.points.append(len((a.get("points") or "").split()))
        for k, v in attrs:
            if k == "class":
                self.classes[(tag, v)] = self.classes.get((tag, v), 0) + 1
            if k in ("src", "href") or (k == "style" and "url(" in (v or "")):
                self.fetches.append((tag, k, v))


    def handle_data(self, data):
        if self._in_legend:
            self.legends.append(data)
            self._in_legend = False


def png_pixels(path):
    """Decodes an 8-bit RGB/RGBA non-interlaced PNG: (width, height, channels, rows)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + " is not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h = int.from_bytes(ihdr[0:4], "big"), int.from_bytes(ihdr[4:8], "big")
    depth, ctype, interlace = ihdr[8], ihdr[9], ihdr[12]
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail("unexpected PNG format: depth %d, colour type %d, interlace %d" % (depth, ctype, interlace))
    ch = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * ch
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(ch, stride):
                line[i] = (line[i] + line[i - ch]) & 255
        elif f == 2:
            line = bytearray(((a + b) & 255) for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - ch] if i >= ch else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - ch] if i >= ch else 0
                b, c = prev[i], (prev[i - ch] if i >= ch else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, ch, rows


def main():
    if len(sys.argv) != 2:
        fail("usage: report_test.py STORLAB")
    storlab = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="storlab-report-")
    try:
        page = os.path.join(tmp, "run.html")
        # Buffered writes through the page cache onto an SSD in a USB
        # enclosure, and a small job with end_fsync: fio's figure beats the
        # link, so the page explains it, and the fsync tail is marked.
        run = subprocess.run(
            [storlab, "sim", "--stack", "usb3-nvme", "--host-mem", "4GiB", "--name=w",
             "--rw=write", "--bs=1m", "--size=512m", "--name=f", "--rw=write", "--bs=64k",
             "--size=16m", "--end_fsync=1", "--output-format=json", "--report", page,
             "--report-csv", os.path.join(tmp, "series.csv")],
            capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            fail("storlab sim --report: status %d: %s" % (run.returncode, run.stderr[:400]))
        text = open(page, encoding="utf-8").read()
        shape = Shape()
        shape.feed(text)
        t = shape.tags
        if t.get("script") or shape.fetches:
            fail("the page loads or runs something: %s %s" % (t.get("script"), shape.fetches[:3]))
        if t.get("svg", 0) < 4:
            fail("expected at least 4 <svg> charts, found %d" % t.get("svg", 0))
        if t.get("polyline", 0) < 4:
            fail("expected time series (<polyline>), found %d" % t.get("polyline", 0))
        if shape.classes.get(("rect", "bar"), 0) < 2:
            fail("expected a latency histogram (rect.bar)")
        if shape.classes.get(("rect", "span"), 0) < 1:
            fail("expected the end_fsync tail marked (rect.span)")
        if shape.classes.get(("ul", "tree"), 0) != 1 or shape.classes.get(("div", "node"), 0) < 2:
            fail("expected the stack as a tree of node boxes")
        if "where the bytes went" not in text.lower() or 'class="explain"' not in text:
            fail("expected the explanation paragraph")
        import json
        doc = json.loads(run.stdout)
        why = doc.get("storlab", {}).get("explanation", "")
        if not why or why.replace("&", "&amp;") not in text:
            fail("storlab.explanation missing from the JSON or differing from the page")
        csv = open(os.path.join(tmp, "run.csv"), encoding="utf-8").read().splitlines()
        if not csv[0].startswith("time_s,") or len(csv) < 20:
            fail("run.csv: expected a header and >= 20 samples, got %d lines" % len(csv))
        # --report-csv: the series the page draws, as drawn: a column per
        # legend (in order, once), named with its unit, a row per point.
        import csv as csvmod
        if open(os.path.join(tmp, "series.csv"), encoding="utf-8").read().splitlines() != csv:
            fail("--report-csv and the CSV beside the page differ")
        rows = list(csvmod.reader(csv))
        header = rows[0][1:]
        names = [h[:h.rindex(" [")] for h in header]
        units = {h[h.rindex(" [") + 2:-1] for h in header}
        drawn = list(dict.fromkeys(shape.legends))
        if names != drawn:
            fail("CSV columns %s differ from the charts' series %s" % (names[:6], drawn[:6]))
        if not units <= {"bytes/s", "bytes", "busy fraction", "requests in flight"}:
            fail("CSV columns without a known unit: %s" % sorted(units))
        if set(shape.points) != {len(rows) - 1}:
            fail("CSV rows (%d) differ from the charts' points %s" % (len(rows) - 1,
                                                                    sorted(set(shape.points))))
        if any(len(r) != len(rows[0]) for r in rows):
            fail("CSV rows of different lengths")

        # A power cut: the timeline of writes from acknowledge to durable,
        # the cut, and what it lost (an HDD's write cache, no flush).
        cut_page = os.path.join(tmp, "cut.html")
        cut = subprocess.run(
            [storlab, "sim", "--stack", "hdd-7200", "--name=w", "--rw=randwrite", "--bs=4k",
             "--size=16m", "--runtime=1", "--time_based", "--ioengine=libaio", "--iodepth=8",
             "--direct=1", "--fsync=32", "--power-cut-at=0.5s", "--report", cut_page],
            capture_output=True, text=True, timeout=60)
        if cut.returncode != 0:
            fail("storlab sim --report --power-cut-at: status %d: %s" %
                 (cut.returncode, cut.stderr[:400]))
        cut_shape = Shape()
        cut_shape.feed(open(cut_page, encoding="utf-8").read())
        cc = cut_shape.classes
        if cc.get(("svg", "cuts"), 0) != 1 or cc.get(("line", "cut"), 0) != 1:
            fail("expected the power-cut timeline (svg.cuts with line.cut)")
        if cc.get(("rect", "durable"), 0) < 1 or cc.get(("rect", "lost"), 0) < 1:
            fail("expected writes made durable and writes lost at the cut: %d durable, %d lost" %
                 (cc.get(("rect", "durable"), 0), cc.get(("rect", "lost"), 0)))
        if cc.get(("ul", "cuts"), 0) != 1:
            fail("expected the list of what each cut lost (ul.cuts)")

        # Bad input: a clear error before the run, naming the option.
        for args, want in (
                (["--report", os.path.join(tmp, "no", "such", "dir", "r.html")],
                 "--report: cannot write"),
                (["--report", os.path.join(tmp, "r.html"), "--repeat", "2"],
                 "--report: one run of fio jobs"),
                (["--report="], "--report needs a file name"),
                (["--report-csv", os.path.join(tmp, "no", "such", "r.csv")],
                 "--report-csv: cannot write"),
                (["--report-csv", os.path.join(tmp, "r.csv"), "--repeat", "2"],
                 "--report-csv: one run of fio jobs")):
            bad = subprocess.run([storlab, "sim", "--stack", "ram", "--name=x", "--size=1m"] + args,
                                 capture_output=True, text=True, timeout=30)
            if bad.returncode not in (1, 2) or want not in bad.stderr:
                fail("%s: status %d, stderr %r (expected %r)" %
                     (args, bad.returncode, bad.stderr[:300], want))

        # storlab demo --report DIR: DIR is made and checked before the cells run.
        blocker = os.path.join(tmp, "a-file")
        open(blocker, "w").close()
        bad = subprocess.run([storlab, "demo", "--report", os.path.join(blocker, "dir")],
                             capture_output=True, text=True, timeout=30)
        if bad.returncode != 2 or "--report: cannot create" not in bad.stderr:
            fail("storlab demo --report under a file: status %d, stderr %r" %
                 (bad.returncode, bad.stderr[:300]))

        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if not chromium:
            print("SKIP: chromium is not installed (Debian package 'chromium'); the page "
                  "itself was checked", file=sys.stderr)
            return SKIP
        shot = os.path.join(tmp, "run.png")
        env = dict(os.environ, HOME=tmp)
        subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--user-data-dir=" + os.path.join(tmp, "profile"), "--screenshot=" + shot,
             "--window-size=800,1600", "file://" + page],
            capture_output=True, timeout=60, env=env)
        if not os.path.exists(shot):
            fail("chromium wrote no screenshot")
        w, h, ch, rows = png_pixels(shot)
        colors, blue, dark = set(), 0, 0
        for r in rows:
            for i in range(0, len(r), ch):
                px = r[i:i + 3]
                colors.add(px)
                if px == b"\x00\x72\xb2":  # the first series' and the bars' colour
                    blue += 1
                if px[0] < 100 and px[1] < 100 and px[2] < 100:
                    dark += 1
        print("screenshot %dx%d: %d colours, %d pixels of the chart blue, %d dark (text)" %
              (w, h, len(colors), blue, dark))
        if len(colors) < 16 or dark < 1000:
            fail("the screenshot looks blank: %d colours, %d dark pixels" % (len(colors), dark))
        if blue < 200:
            fail("no chart drawn in the screenshot (%d pixels of #0072B2)" % blue)
        # The power-cut page: its timeline drawn, the lost writes in #D55E00.
        cut_shot = os.path.join(tmp, "cut.png")
        subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--user-data-dir=" + os.path.join(tmp, "profile"), "--screenshot=" + cut_shot,
             "--window-size=800,1000", "file://" + cut_page],
            capture_output=True, timeout=60, env=env)
        if not os.path.exists(cut_shot):
            fail("chromium wrote no screenshot of the power-cut page")
        w, h, ch, rows = png_pixels(cut_shot)
        lost = sum(1 for r in rows for i in range(0, len(r), ch) if r[i:i + 3] == b"\xd5\x5e\x00")
        durable = sum(1 for r in rows for i in range(0, len(r), ch)
                      if r[i:i + 3] == b"\x00\x72\xb2")
        print("power-cut screenshot %dx%d: %d pixels lost (#D55E00), %d durable (#0072B2)" %
              (w, h, lost, durable))
        if lost < 100 or durable < 200:
            fail("the power-cut timeline is not drawn: %d lost, %d durable pixels" % (lost, durable))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
