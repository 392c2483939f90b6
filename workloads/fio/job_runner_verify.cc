// JobRunner's verify= (verify.h): writes carry fio's verify header and
// checksum, reads check what the stack returned — every read of a job that
// only reads, and the verify pass after a job's writes (fio backend.c:
// thread_main() runs do_verify() after do_io() when do_verify=1, reading
// back io_hist_list, fio's log_io_piece() list, in write order).
//
// verify_async=N (fio: the read completes at once and verify_io_u_async()
// hands it to one of N verifier threads) checks the same read at the same
// moment: storlab gives verification no CPU time, so taking it off the
// job's thread changes no simulated time. What it changes is what fio
// reports: the io_u's flags in the failure message and the error's origin,
// verify_async_thread()'s td_verror(..., "async_verify"); the job stops at
// its next I/O, as fio's do_io() does when break_on_this_error() sees
// td->error.
//
// verify_only (backend.c do_dry_run()): a job that writes goes through its
// writes without doing them — each completes at once (job_runner_io.cc
// Dispatch()), is counted, and its block enters the history — then
// verifies what the stack holds, written earlier by another job. Its
// writes get no runtime (update_runtime()); verify_header() skips the
// numberio check, and the rand_seed check passes for a job that only
// writes (verify_io_u() takes the header's: !td_rw()); here neither is
// checked, so a randrw job's blocks written by another job pass too.
//
// The first failure ends the job with EILSEQ, as fio's io_u_queued_complete()
// / io_u_sync_complete() do with the error verify_io_u() returns (with or
// without verify_fatal: that option only stops verify_io_u() at the failing
// block of an I/O of several verify_interval blocks; without it the I/O's
// result is its last block's, as in fio) — unless
// continue_on_error=verify (or all) makes it non-fatal: then it is counted
// and the job goes on, and verify_fatal=1 ends it without an error
// (job_runner_errors.cc).
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "sim/quoted.h"
#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// At issue, as fio's get_io_u() / log_io_piece(): a write's header fields
// (numberio: td->io_issues[DDIR_WRITE] before this one), and the entry in
// the history; a read of a read-only job expects its own offset.
void JobRunner::VerifyIssue(const IoUnit& u) {
  VerifyBlock& b = vlog_.unit[static_cast<size_t>(&u - units_.data())];
  const bool experimental = spec_.opts.experimental_verify;
  if (u.dir == kWrite) {
    b.offset = u.offset;
    b.numberio = static_cast<uint16_t>(write_issues_ - 1);
    b.rand_seed = spec_.rand_seed ^ (write_issues_ * 0x9e3779b97f4a7c15ULL);
    b.thread = static_cast<uint16_t>(spec_.thread_number);
    b.time_ns = static_cast<uint64_t>(u.start.count());
    // A block written again: the older entry is superseded (fio's rb-tree
    // insert drops the old io_piece when it overlaps). experimental_verify
    // keeps every write: its pass reads them all again.
    auto [it, fresh] = experimental
                           ? std::pair{vlog_.index.end(), true}
                           : vlog_.index.try_emplace({u.file, u.offset}, vlog_.hist.size());
    if (!fresh) {
      VerifyPiece& old = vlog_.hist[it->second];
      if (old.length && it->second >= vlog_.pos) --vlog_.live;
      old.length = 0;
      vlog_.trims.Remove(old);
      it->second = vlog_.hist.size();
    }
    vlog_.piece[static_cast<size_t>(&u - units_.data())] = vlog_.hist.size();
    vlog_.hist.push_back({.file = u.file, .length = u.length, .block = b});
    ++vlog_.live;  // iolog.c log_io_piece(): io_hist_len++
    // log_io_piece(): io_u_should_trim() puts trim_percentage of the
    // blocks on the trim list (verify_trims.h).
    if (vlog_.trims.Draw()) vlog_.trims.Add(vlog_.hist, vlog_.hist.size() - 1);
  } else if (u.dir == kTrim) {
    // experimental_verify: do_verify() turns a trim of the job's into a
    // read of zeros (IO_U_F_TRIMMED).
    VerifyBlock t{.offset = u.offset};
    vlog_.hist.push_back(
        {.file = u.file, .length = u.length, .block = t, .in_flight = false, .trimmed = true});
    ++vlog_.live;
  } else if (u.dir == kRead && !u.ver_list) {
    b = VerifyBlock{};
    b.offset = u.offset;
  }
}

bool JobRunner::VerifyPick(IoUnit* u) {
  while (vlog_.pos < vlog_.hist.size() && vlog_.hist[vlog_.pos].length == 0) ++vlog_.pos;
  if (vlog_.pos >= vlog_.hist.size()) return false;
  const size_t slot = static_cast<size_t>(u - units_.data());
  vlog_.piece[slot] = vlog_.pos;
  VerifyPiece& p = vlog_.hist[vlog_.pos++];
  --vlog_.live;
  vlog_.trims.Remove(p);  // get_next_verify(): remove_trim_entry()
  u->file = p.file;
  u->offset = p.block.offset;
  u->length = p.length;
  u->ver_list = true;
  vlog_.unit[slot] = p.block;
  return true;
}

// trim.c get_next_trim(): a trim of the oldest block on the trim list. With
// trim_verify_zero the block stays in the history, to read back as zeros
// (IP_F_TRIMMED); without, it leaves it (io_hist_len--), unverified.
bool JobRunner::TrimVerifyPick(IoUnit* u) {
  const size_t i = vlog_.trims.Pop(vlog_.hist);
  VerifyPiece& p = vlog_.hist[i];
  u->file = p.file;
  u->offset = p.block.offset;
  u->length = p.length;
  u->ver_list = true;  // not the job's own trim: no trimwrite pairing, no size
  if (spec_.opts.trim_verify_zero) {
    p.trimmed = true;
  } else {
    p.length = 0;
    --vlog_.live;
  }
  return true;
}

// io_u.c check_get_verify(), before each new I/O of a job with
// verify_backlog=N: when the blocks written and not yet verified come to
// a multiple of N (and the last I/O was not a read), the next
// verify_backlog_batch (default N) I/Os read back the oldest of them
// (verify.c get_next_verify(): one whose write has completed; else a
// normal I/O goes first).
bool JobRunner::BacklogDue() {
  const JobOptions& o = spec_.opts;
  // experimental_verify: no io_hist_list to take them from.
  if (!o.verify_backlog || !VerifyOn() || !vlog_.live || o.experimental_verify) return false;
  if (verify_batch_ <= 0) {
    if (vlog_.live % o.verify_backlog != 0 || last_dir_issued_ == kRead) return false;
    verify_batch_ =
        o.verify_backlog_batch ? o.verify_backlog_batch : static_cast<int64_t>(o.verify_backlog);
  }
  while (vlog_.pos < vlog_.hist.size() && vlog_.hist[vlog_.pos].length == 0) ++vlog_.pos;
  if (vlog_.pos >= vlog_.hist.size() || vlog_.hist[vlog_.pos].in_flight) return false;
  --verify_batch_;
  return true;
}

// A write completed: its entry may be verified (IP_F_IN_FLIGHT cleared).
void JobRunner::VerifyWritten(const IoUnit& u) {
  const size_t i = vlog_.piece[static_cast<size_t>(&u - units_.data())];
  if (i < vlog_.hist.size()) vlog_.hist[i].in_flight = false;
}

void JobRunner::VerifyFill(const IoUnit& u, uint8_t* data) {
  const size_t slot = static_cast<size_t>(&u - units_.data());
  FillVerify(spec_.verify, spec_.verify_pattern, vlog_.unit[slot], data, u.length,
             spec_.verify_interval, static_cast<uint64_t>(spec_.opts.verify_offset));
  // verify_dump regenerates the good data from its seed (fio's
  // fill_pattern_headers()); here it is what the write carried.
  if (spec_.opts.verify_dump && vlog_.piece[slot] < vlog_.hist.size())
    vlog_.hist[vlog_.piece[slot]].data.assign(data, data + u.length);
}

void JobRunner::VerifyRead(const IoUnit& u) {
  if (failed_ || (spec_.do_write && !u.ver_list)) return;
  const size_t slot = static_cast<size_t>(&u - units_.data());
  const std::string& file = host_.fs().file(files_[u.file].id).name;
  // verify_io_u(): a block trim verify trimmed (IO_U_F_TRIMMED) is zeros.
  const bool trimmed =
      u.ver_list && vlog_.piece[slot] < vlog_.hist.size() && vlog_.hist[vlog_.piece[slot]].trimmed;
  const VerifyOutcome v =
      trimmed
          ? CheckTrimmed(file, u.offset, bufs_.slot(slot), u.length)
          : CheckVerify(spec_.verify, spec_.verify_pattern, vlog_.unit[slot],
                        u.ver_list && !spec_.opts.verify_only, file, bufs_.slot(slot), u.length,
                        spec_.verify_interval, spec_.opts.verify_fatal, spec_.opts.verify_async > 0,
                        static_cast<uint64_t>(spec_.opts.verify_offset));
  if (spec_.opts.verify_dump && !trimmed) {
    VerifyDump(u, v);
  } else {
    AddMessages(v.messages);
  }
  if (!v.failed || !VerifyErrorEndsJob()) return;
  failed_ = true;
  ts_.error = EILSEQ;
  // verify_async: verify_async_thread()'s td_verror(td, ret, "async_verify").
  ts_.verror = std::string(spec_.opts.verify_async ? "file:verify.c:1441, func=async_verify"
                                                   : "file:io_u.c:2152, func=io_u_sync_complete") +
               ", error=" + std::strerror(EILSEQ);
}

void JobRunner::AddMessages(const std::string& msg) {
  for (size_t pos = 0; pos < msg.size();) {
    size_t nl = msg.find('\n', pos);
    messages_.push_back(msg.substr(pos, nl - pos));
    pos = nl + 1;
  }
}

// verify.c dump_buf() for each bad block, after its messages: a bad
// header's block as NAME.OFFSET.hdr_fail (verify_header()); a bad
// checksum's as NAME.OFFSET.received and what was written as
// NAME.OFFSET.expected (__dump_verify_buffers(); fio regenerates it from
// the header's seed, storlab keeps a copy of each write's data for it, so
// a job that only reads dumps what it received alone). NAME is the file's
// base name; fio writes them in the current directory.
void JobRunner::VerifyDump(const IoUnit& u, const VerifyOutcome& v) {
  const std::string& path = host_.fs().file(files_[u.file].id).name;
  const std::string base = path.substr(path.rfind('/') + 1);
  const size_t slot = static_cast<size_t>(&u - units_.data());
  const VerifyPiece* piece = u.ver_list && vlog_.piece[slot] < vlog_.hist.size()
                                 ? &vlog_.hist[vlog_.piece[slot]]
                                 : nullptr;
  const uint8_t* got = bufs_.slot(slot);
  for (const VerifyOutcome::Bad& b : v.bad) {
    AddMessages(b.message);
    const std::string name = base + "." + std::to_string(u.offset + b.at) + ".";
    auto dump = [&](const char* type, const uint8_t* bytes) {
      dumps_.push_back({name + type, std::vector<uint8_t>(bytes + b.at, bytes + b.at + b.length)});
      messages_.push_back(std::string("       ") + type + " data dumped as " + name + type);
    };
    if (b.header) {
      dump("hdr_fail", got);
      continue;
    }
    dump("received", got);
    if (piece && piece->data.size() >= b.at + b.length) dump("expected", piece->data.data());
  }
}

// After the writes (and end_fsync), once: the verify pass, when the job
// wrote with do_verify=1 and no error.
bool JobRunner::StartVerify(Nanos t) {
  if (verifying_ || !VerifyOn() || !spec_.do_write || !spec_.opts.do_verify || failed_ ||
      vlog_.hist.empty()) {
    return false;
  }
  verifying_ = true;
  verify_start_ = t;
  thread_free_ = Max(thread_free_, t);
  phase_ = Phase::kRunning;
  host_.engine().At(t, [this] { Pump(); });
  return true;
}

Status WriteVerifyDumps(const JobRunner& r) {
  for (const VerifyDumpFile& d : r.verify_dumps()) {
    std::FILE* f = std::fopen(d.name.c_str(), "w");
    if (!f) {
      return Status::InvalidArgument("verify_dump: cannot open " + Quoted(d.name) + ": " +
                                     std::strerror(errno));
    }
    const bool ok = std::fwrite(d.bytes.data(), 1, d.bytes.size(), f) == d.bytes.size();
    if (std::fclose(f) != 0 || !ok) {
      return Status::InvalidArgument("verify_dump: cannot write " + Quoted(d.name));
    }
  }
  return Status();
}

}  // namespace storlab::fio
