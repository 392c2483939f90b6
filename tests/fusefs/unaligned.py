"""Writes and reads an image at unaligned offsets and sizes, from several
threads at once, and checks every byte against a shadow copy.

  unaligned.py IMAGE SPAN SEED [--direct-threads]

Each of 4 threads owns a region of the first SPAN bytes whose edges are not
block-aligned, so neighbouring threads' writes share logical blocks: a
read-modify-write that let another write slip in between its read and its
write would lose that write's bytes, and the check would see it.
"""
import os
import random
import sys
import threading

path, span, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
threads = 4
edges = [0] + sorted(random.Random(seed).sample(range(1, span), threads - 1)) + [span]
shadow = bytearray(span)
fd = os.open(path, os.O_RDWR)
os.pwrite(fd, bytes(span), 0)  # a known start
errors = []


def work(t):
    rng = random.Random(seed * 100 + t)
    lo, hi = edges[t], edges[t + 1]
    for _ in range(150):
        off = rng.randrange(lo, hi)
        n = rng.randrange(1, min(hi - off, 20000) + 1)
        data = rng.randbytes(n)
        if os.pwrite(fd, data, off) != n:
            errors.append("short write")
        shadow[off:off + n] = data
        r0 = rng.randrange(lo, hi)
        r1 = rng.randrange(r0, hi) + 1
        got = os.pread(fd, r1 - r0, r0)
        if got != bytes(shadow[r0:r1]):
            errors.append("thread %d: read [%d, %d) differs" % (t, r0, r1))


ts = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
for t in ts:
    t.start()
for t in ts:
    t.join()
whole = os.pread(fd, span, 0)
if whole != bytes(shadow):
    first = next(i for i in range(span) if whole[i] != shadow[i])
    errors.append("final content differs from byte %d" % first)
# Past the end: a read is short, a write is refused.
size = os.fstat(fd).st_size
if os.pread(fd, 100, size - 10) != os.pread(fd, 10, size - 10):
    errors.append("a read across the end is not cut at the end")
try:
    os.pwrite(fd, b"x", size)
    errors.append("a write past the end succeeded")
except OSError as e:
    if e.errno != 28:
        errors.append("a write past the end: errno %d, not ENOSPC" % e.errno)
os.close(fd)
if errors:
    print("\n".join(errors[:10]))
    sys.exit(1)
print("ok: %d bytes, %d threads" % (span, threads))
