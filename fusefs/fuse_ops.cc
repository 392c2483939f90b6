// The low-level operations (fuse_ops.h): one handler per request type, each
// a call into the Vfs and exactly one fuse_reply_* with its answer.
#include "fusefs/fuse_ops.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <vector>

#include "sim/status_errno.h"

namespace storlab::fusefs {
namespace {

Fs& F(fuse_req_t req) { return *static_cast<Fs*>(fuse_req_userdata(req)); }
Vfs& V(fuse_req_t req) { return *F(req).vfs; }

// Runs `fn`; an exception that escapes it (none should: the Vfs answers
// with Status) becomes EIO rather than crossing into libfuse.
template <typename Fn>
void Guard(fuse_req_t req, Fn&& fn) {
  try {
    fn();
  } catch (...) {
    fuse_reply_err(req, EIO);
  }
}

void ReplyStatus(fuse_req_t req, const Status& st) { fuse_reply_err(req, ToErrno(st)); }

void ReplyEntry(fuse_req_t req, const Result<struct stat>& a) {
  if (!a.ok()) return ReplyStatus(req, a.status());
  fuse_entry_param e = {};
  e.ino = a->st_ino;
  e.attr = *a;
  e.attr_timeout = e.entry_timeout = F(req).timeout;
  fuse_reply_entry(req, &e);
}

void FillOpen(fuse_file_info* fi, const OpenAnswer& a) {
  fi->fh = a.fh;
  fi->direct_io = a.direct_io;
  fi->keep_cache = a.keep_cache;
  fi->nonseekable = a.nonseekable;
}

Caller Who(fuse_req_t req) {
  const fuse_ctx* c = fuse_req_ctx(req);
  return Caller{static_cast<uint32_t>(c->uid), static_cast<uint32_t>(c->gid),
                static_cast<uint32_t>(c->umask)};
}

// Negotiates the connection: the caching the mount asked for, requests of
// up to max_write, enough background requests for a queue depth of 32+.
void OpInit(void* userdata, fuse_conn_info* conn) {
  Fs& fs = *static_cast<Fs*>(userdata);
  if (fs.conn_opts) fuse_apply_conn_info_opts(fs.conn_opts, conn);
  if (fs.writeback_cache && (conn->capable & FUSE_CAP_WRITEBACK_CACHE))
    conn->want |= FUSE_CAP_WRITEBACK_CACHE;
  if (!fs.writeback_cache) conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
  if (conn->capable & FUSE_CAP_ASYNC_DIO) conn->want |= FUSE_CAP_ASYNC_DIO;
  if (conn->capable & FUSE_CAP_PARALLEL_DIROPS) conn->want |= FUSE_CAP_PARALLEL_DIROPS;
  if (conn->max_write > fs.max_write) conn->max_write = fs.max_write;
  conn->max_readahead = std::min<unsigned>(conn->max_readahead, 1u << 20);
  conn->max_background = 128;
  conn->congestion_threshold = 96;
  fs.writeback_granted = (conn->want & FUSE_CAP_WRITEBACK_CACHE) != 0;
  fs.max_write_granted = conn->max_write;
}

void OpLookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
  Guard(req, [&] { ReplyEntry(req, V(req).Lookup(parent, name)); });
}

void OpForget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup) {
  V(req).Forget(ino, nlookup);
  fuse_reply_none(req);
}

void OpForgetMulti(fuse_req_t req, size_t count, fuse_forget_data* forgets) {
  for (size_t i = 0; i < count; ++i) V(req).Forget(forgets[i].ino, forgets[i].nlookup);
  fuse_reply_none(req);
}

void OpGetattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
  Guard(req, [&] {
    auto a = V(req).GetAttr(ino);
    if (!a.ok()) return ReplyStatus(req, a.status());
    fuse_reply_attr(req, &*a, F(req).timeout);
  });
}

void OpSetattr(fuse_req_t req, fuse_ino_t ino, struct stat* attr, int to_set, fuse_file_info*) {
  Guard(req, [&] {
    SetAttrs s;
    s.attr = *attr;
    s.mode = to_set & FUSE_SET_ATTR_MODE;
    s.uid = to_set & FUSE_SET_ATTR_UID;
    s.gid = to_set & FUSE_SET_ATTR_GID;
    s.size = to_set & FUSE_SET_ATTR_SIZE;
    s.atime = to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_ATIME_NOW);
    s.atime_now = to_set & FUSE_SET_ATTR_ATIME_NOW;
    s.mtime = to_set & (FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_MTIME_NOW);
    s.mtime_now = to_set & FUSE_SET_ATTR_MTIME_NOW;
    const double timeout = F(req).timeout;
    V(req).SetAttr(ino, s, [req, timeout](Result<struct stat> a) {
      if (!a.ok()) return ReplyStatus(req, a.status());
      fuse_reply_attr(req, &*a, timeout);
    });
  });
}

void OpReadlink(fuse_req_t req, fuse_ino_t ino) {
  Guard(req, [&] {
    auto t = V(req).Readlink(ino);
    if (!t.ok()) return ReplyStatus(req, t.status());
    fuse_reply_readlink(req, t->c_str());
  });
}

void OpMknod(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode, dev_t) {
  Guard(req, [&] { ReplyEntry(req, V(req).Mknod(parent, name, mode, Who(req))); });
}

void OpMkdir(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode) {
  Guard(req, [&] { ReplyEntry(req, V(req).Mkdir(parent, name, mode, Who(req))); });
}

void OpSymlink(fuse_req_t req, const char* link, fuse_ino_t parent, const char* name) {
  Guard(req, [&] { ReplyEntry(req, V(req).Symlink(link, parent, name, Who(req))); });
}

void OpUnlink(fuse_req_t req, fuse_ino_t parent, const char* name) {
  Guard(req, [&] { ReplyStatus(req, V(req).Unlink(parent, name)); });
}

void OpRmdir(fuse_req_t req, fuse_ino_t parent, const char* name) {
  Guard(req, [&] { ReplyStatus(req, V(req).Rmdir(parent, name)); });
}

void OpRename(fuse_req_t req, fuse_ino_t parent, const char* name, fuse_ino_t newparent,
              const char* newname, unsigned int flags) {
  Guard(req, [&] { ReplyStatus(req, V(req).Rename(parent, name, newparent, newname, flags)); });
}

void OpLink(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent, const char* newname) {
  Guard(req, [&] { ReplyEntry(req, V(req).Link(ino, newparent, newname)); });
}

void OpOpen(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  Guard(req, [&] {
    auto a = V(req).Open(ino, fi->flags);
    if (!a.ok()) return ReplyStatus(req, a.status());
    FillOpen(fi, *a);
    fuse_reply_open(req, fi);
  });
}

void OpCreate(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode,
              fuse_file_info* fi) {
  Guard(req, [&] {
    auto r = V(req).Create(parent, name, mode, fi->flags, Who(req));
    if (!r.ok()) return ReplyStatus(req, r.status());
    fuse_entry_param e = {};
    e.ino = r->first.st_ino;
    e.attr = r->first;
    e.attr_timeout = e.entry_timeout = F(req).timeout;
    FillOpen(fi, r->second);
    fuse_reply_create(req, &e, fi);
  });
}

void OpRead(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info* fi) {
  Guard(req, [&] {
    if (off < 0) return (void)fuse_reply_err(req, EINVAL);
    V(req).Read(ino, fi->fh, static_cast<uint64_t>(off), size,
                [req](Status st, const uint8_t* data, size_t n) {
                  if (!st.ok()) return ReplyStatus(req, st);
                  fuse_reply_buf(req, reinterpret_cast<const char*>(data), n);
                });
  });
}

void OpWrite(fuse_req_t req, fuse_ino_t ino, const char* buf, size_t size, off_t off,
             fuse_file_info* fi) {
  Guard(req, [&] {
    if (off < 0) return (void)fuse_reply_err(req, EINVAL);
    V(req).Write(ino, fi->fh, static_cast<uint64_t>(off), reinterpret_cast<const uint8_t*>(buf),
                 size, [req](Result<size_t> n) {
                   if (!n.ok()) return ReplyStatus(req, n.status());
                   fuse_reply_write(req, *n);
                 });
  });
}

void OpFlush(fuse_req_t req, fuse_ino_t, fuse_file_info*) { fuse_reply_err(req, 0); }

void OpRelease(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  V(req).Release(ino, fi->fh);
  fuse_reply_err(req, 0);
}

void OpFsync(fuse_req_t req, fuse_ino_t ino, int datasync, fuse_file_info* fi) {
  Guard(req, [&] {
    V(req).Fsync(ino, fi ? fi->fh : 0, datasync != 0, [req](Status st) { ReplyStatus(req, st); });
  });
}

void OpOpendir(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  Guard(req, [&] {
    auto a = V(req).OpenDir(ino);
    if (!a.ok()) return ReplyStatus(req, a.status());
    fi->fh = a->fh;
    fuse_reply_open(req, fi);
  });
}

void OpReaddir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info*) {
  Guard(req, [&] {
    if (off < 0) return (void)fuse_reply_err(req, EINVAL);
    // A name takes at least 32 bytes of the buffer (fuse_dirent + padding).
    auto entries = V(req).ReadDir(ino, static_cast<uint64_t>(off), size / 32 + 1);
    if (!entries.ok()) return ReplyStatus(req, entries.status());
    std::vector<char> buf(size);
    size_t used = 0;
    for (const DirEntry& e : *entries) {
      struct stat st = {};
      st.st_ino = e.ino;
      st.st_mode = e.mode;
      const size_t n = fuse_add_direntry(req, buf.data() + used, size - used, e.name.c_str(), &st,
                                         static_cast<off_t>(e.next));
      if (n > size - used) break;
      used += n;
    }
    fuse_reply_buf(req, buf.data(), used);
  });
}

void OpReleasedir(fuse_req_t req, fuse_ino_t, fuse_file_info*) { fuse_reply_err(req, 0); }

void OpFsyncdir(fuse_req_t req, fuse_ino_t, int, fuse_file_info*) { fuse_reply_err(req, 0); }

void OpStatfs(fuse_req_t req, fuse_ino_t ino) {
  Guard(req, [&] {
    auto s = V(req).StatFs(ino);
    if (!s.ok()) return ReplyStatus(req, s.status());
    fuse_reply_statfs(req, &*s);
  });
}

void OpFallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t offset, off_t length,
                 fuse_file_info* fi) {
  Guard(req, [&] {
    if (offset < 0 || length <= 0) return (void)fuse_reply_err(req, EINVAL);
    V(req).Fallocate(ino, fi->fh, mode, static_cast<uint64_t>(offset),
                     static_cast<uint64_t>(length), [req](Status st) { ReplyStatus(req, st); });
  });
}

const fuse_lowlevel_ops kOps = [] {
  fuse_lowlevel_ops o = {};
  o.init = OpInit;
  o.lookup = OpLookup;
  o.forget = OpForget;
  o.forget_multi = OpForgetMulti;
  o.getattr = OpGetattr;
  o.setattr = OpSetattr;
  o.readlink = OpReadlink;
  o.mknod = OpMknod;
  o.mkdir = OpMkdir;
  o.symlink = OpSymlink;
  o.unlink = OpUnlink;
  o.rmdir = OpRmdir;
  o.rename = OpRename;
  o.link = OpLink;
  o.open = OpOpen;
  o.create = OpCreate;
  o.read = OpRead;
  o.write = OpWrite;
  o.flush = OpFlush;
  o.release = OpRelease;
  o.fsync = OpFsync;
  o.opendir = OpOpendir;
  o.readdir = OpReaddir;
  o.releasedir = OpReleasedir;
  o.fsyncdir = OpFsyncdir;
  o.statfs = OpStatfs;
  o.fallocate = OpFallocate;
  return o;
}();

}  // namespace

const fuse_lowlevel_ops& Operations() { return kOps; }

}  // namespace storlab::fusefs
