"""POSIX checks of a file tree (a small set in the spirit of pjdfstest's
rename, unlink, truncate, open and mkdir suites), run in DIR.

  posix.py DIR
"""
import ctypes
import errno
import os
import stat
import sys

d = sys.argv[1]
failures = []
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD = -100
RENAME_NOREPLACE, RENAME_EXCHANGE, RENAME_WHITEOUT = 1, 2, 4


def p(*names):
    return os.path.join(d, *names)


def expect(err, fn, *args):
    try:
        fn(*args)
    except OSError as e:
        if e.errno != err:
            failures.append("%s%r: %s, expected %s" % (fn.__name__, args, errno.errorcode[e.errno],
                                                       errno.errorcode[err]))
        return
    failures.append("%s%r: succeeded, expected %s" % (fn.__name__, args, errno.errorcode[err]))


def check(cond, what):
    if not cond:
        failures.append(what)


def renameat2(a, b, flags):
    if libc.renameat2(AT_FDCWD, a.encode(), AT_FDCWD, b.encode(), flags) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


# mkdir
os.mkdir(p("dir"), 0o755)
check(stat.S_ISDIR(os.stat(p("dir")).st_mode), "mkdir: not a directory")
check(os.stat(p("dir")).st_mode & 0o777 == 0o755 & ~os.umask(0o22), "mkdir: mode")
expect(errno.EEXIST, os.mkdir, p("dir"))
expect(errno.ENOENT, os.mkdir, p("nodir", "x"))
expect(errno.ENAMETOOLONG, os.mkdir, p("n" * 256))
os.mkdir(p("n" * 255))
os.rmdir(p("n" * 255))
nlink = os.stat(d).st_nlink
os.mkdir(p("dir", "sub"))
check(os.stat(p("dir")).st_nlink == 3, "mkdir: the parent's link count")

# open
write(p("f"), b"hello")
expect(errno.EEXIST, os.open, p("f"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
expect(errno.ENOENT, os.open, p("missing"), os.O_RDONLY)
expect(errno.EISDIR, os.open, p("dir"), os.O_WRONLY)
expect(errno.ENOTDIR, os.open, p("f", "x"), os.O_RDONLY)
fd = os.open(p("f"), os.O_WRONLY | os.O_TRUNC)
os.close(fd)
check(os.stat(p("f")).st_size == 0, "open O_TRUNC: size")
write(p("f"), b"hello")
fd = os.open(p("f"), os.O_WRONLY | os.O_APPEND)
os.write(fd, b" world")
os.close(fd)
check(read(p("f")) == b"hello world", "open O_APPEND")

# truncate
os.truncate(p("f"), 5)
check(read(p("f")) == b"hello", "truncate down")
os.truncate(p("f"), 10000)
check(read(p("f")) == b"hello" + bytes(9995), "truncate up: zeros past the old end")
os.truncate(p("f"), 3)
os.truncate(p("f"), 4096)
check(read(p("f")) == b"hel" + bytes(4093), "truncate inside a block, then up: zeros")
expect(errno.EISDIR, os.truncate, p("dir"), 0)
expect(errno.ENOENT, os.truncate, p("missing"), 0)
expect(errno.EINVAL, os.truncate, p("f"), -1)
# A hole in the middle reads as zeros.
with open(p("sparse"), "wb") as f:
    f.seek(1 << 20)
    f.write(b"end")
check(read(p("sparse")) == bytes(1 << 20) + b"end", "a hole reads as zeros")

# unlink
write(p("u"), b"x")
os.link(p("u"), p("u2"))
check(os.stat(p("u")).st_nlink == 2, "link: count")
os.unlink(p("u"))
check(os.stat(p("u2")).st_nlink == 1 and read(p("u2")) == b"x", "unlink one of two links")
expect(errno.ENOENT, os.unlink, p("u"))
expect(errno.EISDIR, os.unlink, p("dir"))
expect(errno.EPERM, os.link, p("dir"), p("dirlink"))
fd = os.open(p("u2"), os.O_RDWR)
os.unlink(p("u2"))
os.pwrite(fd, b"still here", 0)
check(os.pread(fd, 10, 0) == b"still here", "an unlinked open file keeps its data")
os.close(fd)
expect(errno.ENOENT, os.stat, p("u2"))

# rmdir
expect(errno.ENOTEMPTY, os.rmdir, p("dir"))
expect(errno.ENOTDIR, os.rmdir, p("f"))
expect(errno.ENOENT, os.rmdir, p("missing"))

# rename
write(p("a"), b"A")
write(p("b"), b"B")
os.rename(p("a"), p("c"))
check(read(p("c")) == b"A" and not os.path.exists(p("a")), "rename")
os.rename(p("c"), p("b"))
check(read(p("b")) == b"A", "rename over a file replaces it")
expect(errno.EISDIR, os.rename, p("b"), p("dir"))
expect(errno.ENOTDIR, os.rename, p("dir"), p("b"))
expect(errno.ENOTEMPTY, os.rename, p("sparse"), p("dir")) if False else None
os.mkdir(p("empty"))
os.rename(p("dir", "sub"), p("empty2"))
check(os.stat(p("dir")).st_nlink == 2, "rename of a directory: the old parent's links")
expect(errno.EINVAL, os.rename, p("dir"), p("dir", "inside"))
os.mkdir(p("full"))
write(p("full", "x"), b"x")
expect(errno.ENOTEMPTY, os.rename, p("empty"), p("full"))
os.rename(p("empty"), p("empty2"))  # over an empty directory
write(p("x"), b"X")
write(p("y"), b"Y")
expect(errno.EEXIST, renameat2, p("x"), p("y"), RENAME_NOREPLACE)
renameat2(p("x"), p("z"), RENAME_NOREPLACE)
renameat2(p("z"), p("y"), RENAME_EXCHANGE)
check(read(p("y")) == b"X" and read(p("z")) == b"Y", "RENAME_EXCHANGE swaps")
expect(errno.ENOENT, renameat2, p("z"), p("nothing"), RENAME_EXCHANGE)
expect(errno.EINVAL, renameat2, p("z"), p("w"), RENAME_WHITEOUT)

# symlink, chmod, statfs
os.symlink("f", p("s"))
check(os.readlink(p("s")) == "f" and read(p("s")) == b"hel" + bytes(4093), "symlink")
os.chmod(p("f"), 0o600)
check(os.stat(p("f")).st_mode & 0o777 == 0o600, "chmod")
sv = os.statvfs(d)
check(sv.f_blocks > 0 and sv.f_bavail <= sv.f_blocks and sv.f_namemax == 255, "statfs")

# .storlab is the mount's own
for fn, args in ((os.rmdir, (p(".storlab"),)), (os.unlink, (p(".storlab", "control"),)),
                 (os.rename, (p(".storlab"), p("mine")))):
    try:
        fn(*args)
        failures.append("%s%r succeeded" % (fn.__name__, args))
    except OSError:
        pass

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("ok: posix checks")
