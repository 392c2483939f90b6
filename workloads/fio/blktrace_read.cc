// blktrace binary files for read_iolog (iolog_read.h), read as fio 3.33's
// blktrace.c does (is_blktrace(), read_blktrace(), queue_trace()).
//
// A file is a sequence of struct blk_io_trace records (fio's blktrace_api.h,
// the kernel's include/uapi/linux/blktrace_api.h), 48 bytes each, in the
// byte order of the machine that traced, each followed by pdu_len bytes of
// payload:
//   0 u32 magic (0x65617400 | version 7)   4 u32 sequence   8 u64 time (ns)
//  16 u64 sector (512 B)   24 u32 bytes   28 u32 action   32 u32 pid
//  36 u32 device (dev_t: major << 20 | minor)   40 u32 cpu
//  44 u16 error   46 u16 pdu_len
// Only queue events (__BLK_TA_QUEUE) become I/O; issue, complete and merge
// events give the queue depth the trace shows (fio's depth_inc/dec/end()).
#include <algorithm>
#include <cstdio>

#include "workloads/fio/iolog_read.h"

namespace storlab::fio {
namespace {

constexpr size_t kRecord = 48;
constexpr uint32_t kMagic = 0x65617400;  // BLK_IO_TRACE_MAGIC
constexpr uint32_t kVersion = 0x07;      // BLK_IO_TRACE_VERSION
constexpr uint32_t kTcShift = 16;
constexpr uint32_t kTcRead = 1u << 0, kTcWrite = 1u << 1, kTcFlush = 1u << 2, kTcNotify = 1u << 10,
                   kTcDiscard = 1u << 13;
// Basic actions (action & 0xffff).
constexpr uint32_t kTaQueue = 1, kTaBackmerge = 2, kTaFrontmerge = 3, kTaComplete = 8,
                   kTaLast = 17;  // __BLK_TA_DRV_DATA
constexpr uint32_t kTnLast = 2;   // __BLK_TN_MESSAGE

uint64_t Load(const char* p, int n, bool big) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) {
    const auto b = static_cast<uint64_t>(static_cast<unsigned char>(p[big ? i : n - 1 - i]));
    v = (v << 8) | b;
  }
  return v;
}

struct Trace {
  uint32_t magic, action, device, bytes;
  uint64_t time, sector;
  uint16_t pdu_len;
};

Trace Decode(const char* p, bool big) {
  Trace t;
  t.magic = static_cast<uint32_t>(Load(p, 4, big));
  t.time = Load(p + 8, 8, big);
  t.sector = Load(p + 16, 8, big);
  t.bytes = static_cast<uint32_t>(Load(p + 24, 4, big));
  t.action = static_cast<uint32_t>(Load(p + 28, 4, big));
  t.device = static_cast<uint32_t>(Load(p + 36, 4, big));
  t.pdu_len = static_cast<uint16_t>(Load(p + 46, 2, big));
  return t;
}

int Dir(uint32_t action) {  // t_get_ddir(): 0 read, 1 write, 2 trim, -1 none
  if (action & (kTcRead << kTcShift)) return 0;
  if (action & (kTcWrite << kTcShift)) return 1;
  if (action & (kTcDiscard << kTcShift)) return 2;
  return -1;
}

}  // namespace

// options.c str_replay_skip_cb(): blanks around the list are dropped, each
// comma-separated word must be one of the four kinds.
Result<uint32_t> ParseReplaySkip(std::string_view value) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  uint32_t mask = 0;
  for (;;) {
    const size_t comma = value.find(',');
    const std::string_view word = value.substr(0, comma);
    if (word == "read") {
      mask |= 1u << ReplayEntry::kRead;
    } else if (word == "write") {
      mask |= 1u << ReplayEntry::kWrite;
    } else if (word == "trim") {
      mask |= 1u << ReplayEntry::kTrim;
    } else if (word == "sync") {
      mask |= 1u << ReplayEntry::kSync;
    } else {
      return Status::InvalidArgument("unknown skip type '" + std::string(word) +
                                     "' (read, write, trim, sync)");
    }
    if (comma == std::string_view::npos) return mask;
    value.remove_prefix(comma + 1);
  }
}

bool IsBlktrace(std::string_view data, bool* need_swap) {
  if (data.size() < kRecord) return false;
  if ((Load(data.data(), 4, false) & 0xffffff00) == kMagic) {
    *need_swap = false;
    return true;
  }
  if ((Load(data.data(), 4, true) & 0xffffff00) == kMagic) {
    *need_swap = true;
    return true;
  }
  return false;
}

Status ParseBlktrace(std::string_view data, bool need_swap, const JobOptions& o, ReplayTrace* t) {
  const bool big = need_swap;  // fields are decoded, not swapped: a swap means big-endian
  uint32_t skip = 0;           // replay_skip (checked when the option was given)
  if (!o.replay_skip.empty()) {
    ASSIGN_OR_RETURN(skip, ParseReplaySkip(o.replay_skip));
  }
  uint64_t last_ttime = 0;
  int this_depth[3] = {0, 0, 0}, depth[3] = {0, 0, 0};
  std::vector<uint32_t> devices;
  size_t pos = 0;
  uint32_t record = 0;
  while (pos < data.size()) {
    ++record;
    const std::string where = t->path + ": blktrace record " + std::to_string(record) + " (byte " +
                              std::to_string(pos) + ")";
    if (data.size() - pos < kRecord) {
      return Status::InvalidArgument(where + ": truncated (" + std::to_string(data.size() - pos) +
                                     " of " + std::to_string(kRecord) + " bytes)");
    }
    const Trace tr = Decode(data.data() + pos, big);
    if ((tr.magic & 0xffffff00) != kMagic) {
      char hex[16];
      std::snprintf(hex, sizeof(hex), "%x", tr.magic);
      return Status::InvalidArgument(where + ": bad magic in blktrace data: " + hex);
    }
    if ((tr.magic & 0xff) != kVersion) {
      return Status::InvalidArgument(where + ": bad blktrace version " +
                                     std::to_string(tr.magic & 0xff));
    }
    pos += kRecord;
    if (data.size() - pos < tr.pdu_len) {
      return Status::InvalidArgument(where + ": payload of " + std::to_string(tr.pdu_len) +
                                     " bytes is truncated");
    }
    pos += tr.pdu_len;  // discard_pdu()
    const uint32_t act = tr.action & 0xffff;
    const bool notify = tr.action & (kTcNotify << kTcShift);
    if (notify ? act > kTnLast : act == 0 || act > kTaLast) {
      char hex[16];
      std::snprintf(hex, sizeof(hex), "%x", tr.action);
      return Status::InvalidArgument(where + ": unknown blktrace action 0x" + hex);
    }
    if (notify) continue;  // handle_trace_notify(): nothing to replay
    const int d = Dir(tr.action);
    if (act == kTaQueue) {
      if (d >= 0) ++this_depth[d];
    } else if (act == kTaBackmerge || act == kTaFrontmerge) {
      if (d >= 0) --this_depth[d];
    } else if (act == kTaComplete) {
      if (d >= 0) {
        depth[d] = std::max(depth[d], this_depth[d]);
        this_depth[d] = 0;
      }
    }
    if (act != kTaQueue) continue;
    // queue_trace()
    ReplayEntry e;
    e.where = record;
    e.delay_us = DelaySince(&last_ttime, tr.time, o) / 1000;
    last_ttime = tr.time;
    uint64_t bytes = tr.bytes;
    if (o.replay_align) {  // t_bytes_align()
      const auto a = static_cast<uint64_t>(o.replay_align);
      bytes = (bytes + a - 1) & ~(a - 1);
    }
    // replay_skip: handle_trace_discard() and handle_trace_flush() skip
    // before their file is added, handle_trace_fs() after; the skipped
    // event's time still moved last_ttime (queue_trace()).
    const bool discard = tr.action & (kTcDiscard << kTcShift);
    const bool flush = !discard && (tr.action & (kTcFlush << kTcShift));
    const bool is_write = tr.action & (kTcWrite << kTcShift);
    if ((discard && (skip & (1u << ReplayEntry::kTrim))) ||
        (flush && (skip & (1u << ReplayEntry::kSync)))) {
      continue;
    }
    const bool skip_fs = !discard && !flush &&
                         (skip & (1u << (is_write ? ReplayEntry::kWrite : ReplayEntry::kRead)));
    // trace_add_file(): one file per device; fio finds it under /dev by
    // major and minor, we name it /dev/block/MAJOR:MINOR (replay_redirect:
    // every device goes to that one file).
    auto it = std::find(devices.begin(), devices.end(), tr.device);
    if (it == devices.end()) {
      const std::string name = o.replay_redirect.empty()
                                   ? "/dev/block/" + std::to_string(tr.device >> 20) + ":" +
                                         std::to_string(tr.device & 0xfffff)
                                   : o.replay_redirect;
      if (std::find(t->files.begin(), t->files.end(), name) == t->files.end()) {
        t->files.push_back(name);
        t->extent.push_back(0);
        t->extent_where.push_back(0);
      }
      devices.push_back(tr.device);
      it = devices.end() - 1;
    }
    const std::string& name = o.replay_redirect.empty()
                                  ? t->files[static_cast<size_t>(it - devices.begin())]
                                  : o.replay_redirect;
    e.file =
        static_cast<uint32_t>(std::find(t->files.begin(), t->files.end(), name) - t->files.begin());
    if (discard) {  // handle_trace_discard()
      e.kind = ReplayEntry::kTrim;
      ++t->trims;
    } else if (flush) {  // handle_trace_flush()
      e.kind = ReplayEntry::kSync;
      ++t->syncs;
      bytes = 0;
    } else {  // handle_trace_fs(): fio skips (and warns about) empty ones
      if (skip_fs || !bytes) continue;
      const int rw = is_write ? 1 : 0;
      e.kind = rw ? ReplayEntry::kWrite : ReplayEntry::kRead;
      ++t->ios[rw];
      t->max_bs[rw] = std::max<uint64_t>(t->max_bs[rw], bytes);
    }
    if (tr.sector > (UINT64_MAX - bytes) / 512) {
      return Status::InvalidArgument(where + ": sector " + std::to_string(tr.sector) +
                                     " is past any device");
    }
    e.offset = ReplayOffset(tr.sector * 512, o);
    e.length = bytes;
    t->bytes += bytes;
    NoteExtent(t, e);
    t->entries.push_back(e);
  }
  // fio's max_depth: capped at 1024 (stacked devices miss completions), at
  // least 1 for a direction with I/O.
  const uint64_t ios[3] = {t->ios[0], t->ios[1], t->trims};
  int max_depth = 0;
  for (int i = 0; i < 3; ++i) {
    depth[i] = std::min(depth[i], 1024);
    if (!depth[i] && ios[i]) depth[i] = 1;
    max_depth = std::max(max_depth, depth[i]);
  }
  t->depth = static_cast<uint32_t>(std::max(max_depth, 1));
  return Status();
}

}  // namespace storlab::fio
