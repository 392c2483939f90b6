// JobRunner's choice of where each I/O goes and how long it is (job_runner.h):
// sequential (with rw=write:112k's skips), random (offset_gen.h, with
// rw=randread:8's sequential runs) and the sizes of bsrange=/bssplit=
// (block_sizes.h), and the restart of the files for the next pass.
#include <algorithm>
#include <set>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// A file whose pass is done is closed (io_u.c: fio_file_done(), then
// td_io_close_file()), freeing its openfiles= slot. Returns true.
bool JobRunner::Exhaust(FileState& f) {
  f.exhausted = true;
  if (f.opened) {
    f.opened = false;
    --open_files_;
    open_set_.erase(static_cast<size_t>(&f - files_.data()));
  }
  return true;
}

void JobRunner::RestartFiles() {
  for (auto& f : files_) {
    if (f.picker) f.picker->Restart();
    f.pos[0] = f.pos[1] = f.pos[2] = f.zone_start;  // the start offset without zones
    f.exhausted = false;
    f.opened = false;  // backend.c: each loop ends with close_files()
  }
  open_files_ = 0;
  open_set_.clear();
  ++extras_.passes;
  Unmap();  // mmap: the next pass maps the files again
}

// file_service_type=random: a file drawn uniformly among those not done
// (get_next_file_rand() draws until it finds one); zipf/pareto/normal: a
// file of the distribution (__get_next_fileno_rand(), fileno >>
// FIO_FSERVICE_SHIFT), whose files are never done.
size_t JobRunner::DrawFile() {
  if (file_dist_) return static_cast<size_t>(file_dist_->Next() >> FileService::kShift);
  size_t left = 0;
  for (const FileState& f : files_) left += !f.exhausted;
  if (left == 0) return next_file_;
  auto k = static_cast<size_t>((static_cast<uint64_t>(file_rng_.Next()) * left) >> 32);
  for (size_t i = 0; i < files_.size(); ++i) {
    if (files_[i].exhausted) continue;
    if (k-- == 0) return i;
  }
  return next_file_;
}

// io_u.c __get_next_file(): the file the last I/O went to, while it is
// open and not done, for file_service_nr I/Os in all (sequential: until it
// is done); then the next by round robin, or a draw. *stay: kept.
size_t JobRunner::ServiceFile(bool* stay) {
  const FileService& s = spec_.file_service;
  *stay = false;
  if (service_file_ < files_.size() && files_[service_file_].opened &&
      !files_[service_file_].exhausted) {
    if (s.kind == FileService::Kind::kSequential) {
      *stay = true;
    } else if (service_left_ > 0) {
      --service_left_;
      *stay = true;
    }
  }
  if (*stay) return service_file_;
  if (s.kind == FileService::Kind::kRandom || s.kind == FileService::Kind::kDist) return DrawFile();
  return next_file_;
}

// io_u.c setup_strided_zone_mode(), before each I/O of a strided job: after
// zonesize bytes, on to the next zone (zonerange + zoneskip further,
// wrapping to the file's start); within a zone, back to its start at its
// end; every zonerange bytes, a fresh random map (fio_file_reset()).
void JobRunner::StridedZone(int dir) {
  FileState& f = files_[0];
  const JobSpec::Zones& z = spec_.zones;
  if (zone_bytes_ >= z.size) {
    zone_bytes_ = 0;
    f.zone_start += z.range + z.skip;
    if (f.zone_start >= f.size) f.zone_start = f.start;  // setup_strided_zone_mode()
    f.pos[dir] = f.zone_start;
  }
  if (f.pos[dir] >= f.zone_start + z.range) f.pos[dir] = f.zone_start;
  if (zone_bytes_ % z.range == 0) {
    f.pos[0] = f.pos[1] = f.zone_start;
    if (f.picker) f.picker->Restart();
    f.exhausted = false;
  }
}

// fio's get_next_offset() and get_next_buflen() (io_u.c): where the next
// I/O of direction `dir` goes and how long it is.
bool JobRunner::PickOffset(int dir, IoUnit* u) {
  if (spec_.trace) return ReplayPick(u);
  if (verifying_ || backlog_pick_) return dir == kTrim ? TrimVerifyPick(u) : VerifyPick(u);
  if (zoned_) StridedZone(dir);
  const uint64_t min_len = spec_.sizes[dir].min;
  // rw=randread:N: every Nth I/O takes a random offset, the others go on
  // from where the last one ended (__get_next_offset, ddir_seq_nr).
  bool random_offset = true;
  // rw_sequencer=identical: an I/O that takes no random offset repeats the
  // last one's (below, f.pos then keeps where the last I/O started).
  const bool identical = spec_.seq_nr > 1 && spec_.opts.rw_sequencer == "identical";
  if (--seq_left_ == 0) {
    seq_left_ = spec_.seq_nr;
    // percentage_random: should_do_random(), random when 1 + 100·r <= it.
    const uint64_t perc = spec_.opts.percentage_random[dir];
    if (perc < 100 && spec_.random) {
      const uint64_t v = 1 + ((static_cast<uint64_t>(seq_rand_rng_[dir].Next()) * 100) >> 32);
      random_offset = v <= perc;
    }
  } else {
    random_offset = false;
  }
  const size_t n = files_.size();
  const bool drawn = spec_.file_service.kind == FileService::Kind::kRandom ||
                     spec_.file_service.kind == FileService::Kind::kDist;
  bool stay = false;
  next_file_ = ServiceFile(&stay);
  // With openfiles= below the files, a file closed in this scan lets a
  // skipped one open: scan twice (fio's do_io() retries after -EBUSY).
  const size_t scan = open_limit_ < n ? 2 * n : n;
  for (size_t tries = 0; tries < scan; ++tries) {
    if (drawn && tries) next_file_ = DrawFile();  // get_next_file_rand() draws again
    size_t idx = next_file_;
    if (open_files_ >= open_limit_ && !files_[idx].opened && !open_set_.empty()) {
      // Every file up to the next open one would be skipped (closed at
      // the limit, or done): go straight there, counting the tries.
      auto it = open_set_.lower_bound(idx);
      const size_t to = it != open_set_.end() ? *it : *open_set_.begin();
      const size_t skip = (to + n - idx) % n;
      if (skip >= scan - tries) {
        next_file_ = (idx + (scan - tries)) % n;
        break;
      }
      tries += skip;
      idx = to;
    }
    next_file_ = (idx + 1) % n;
    FileState& f = files_[idx];
    if (f.exhausted) continue;
    // zipf/pareto/normal file service: a file at its end starts again
    // (io_u.c: fio_file_reset() for __FIO_FSERVICE_NONUNIFORM).
    auto exhaust = [&](FileState& done) {
      if (!file_dist_) return Exhaust(done);
      if (done.picker) done.picker->Restart();
      done.pos[0] = done.pos[1] = done.pos[2] = done.zone_start;
      return true;
    };
    if (!f.opened) {
      // get_next_file_rr(): with openfiles= files open, the next closed
      // one is -EBUSY and the next file is tried.
      if (open_files_ >= open_limit_) continue;
      f.opened = true;
      ++open_files_;
      if (open_limit_ < n) open_set_.insert(idx);
      opened_now_.push_back(idx);
    }
    uint64_t off;
    bool from_map = false;
    uint64_t b = 0;
    if (f.picker && (random_offset || f.pos[dir] + min_len > f.size)) {
      if (!f.picker->Next(&b)) {
        if (exhaust(f)) continue;
      }
      off = f.zone_start + b * granule_;
      from_map = true;
    } else {
      // get_next_seq_offset(): rw=write:112k skips that much after each
      // I/O, wrapping to the start (or, going backwards, to the end).
      if (f.pos[dir] >= f.size) {
        if (exhaust(f)) continue;
      }
      off = f.pos[dir];
      if (off != f.zone_start && spec_.seq_add) {
        off += static_cast<uint64_t>(spec_.seq_add);  // wraps when negative, as fio's
        if (off >= f.size)
          off = spec_.seq_add > 0 ? f.zone_start : f.size + static_cast<uint64_t>(spec_.seq_add);
      }
      if (off + min_len > f.size) {
        if (exhaust(f)) continue;
      }
    }
    uint64_t len = min_len;
    if (buflen_[dir]) {
      len = buflen_[dir]->Next(f.size - off);
      if (len == 0) {
        if (exhaust(f)) continue;
      }
      // mark_random_map(): the I/O ends where the map is already used.
      if (from_map)
        len = std::min(len, f.picker->Claim(b, (len + granule_ - 1) / granule_) * granule_);
    }
    // io_u.c get_next_block(): with rw_sequencer=identical, the next I/O
    // that takes no random offset starts where this one did (fio's
    // f->last_start[ddir]; 0 before the first).
    f.pos[dir] = identical ? off : off + len;
    zone_bytes_ += len;
    if (!stay || idx != service_file_) {  // __get_next_file(): a new pick
      service_file_ = idx;
      service_left_ = spec_.file_service.nr - 1;
    }
    u->file = static_cast<uint32_t>(idx);
    u->offset = off;
    u->length = len;
    return true;
  }
  return false;
}

}  // namespace storlab::fio
