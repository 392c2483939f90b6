// PageCache: buffered reads, on-demand read-ahead (mm/readahead.c) and the
// child reads that fill the cache.
#include <algorithm>
#include <bit>

#include "sim/layers/page_cache/page_cache.h"

namespace storlab {

namespace {

// get_init_ra_size(): the first window of a sequential stream.
uint64_t InitWindow(uint64_t req_pages, uint64_t max) {
  uint64_t n = std::bit_ceil(req_pages);
  if (n <= max / 32) return n * 4;
  if (n <= max / 4) return n * 2;
  return max;
}

// get_next_ra_size(): how the window ramps up.
uint64_t NextWindow(uint64_t cur, uint64_t max) {
  if (cur < max / 16) return 4 * cur;
  if (cur <= max / 2) return 2 * cur;
  return max;
}

}  // namespace

void PageCache::StartRead(Request req) {
  const uint64_t first = PageOf(req.offset), last = LastPageOf(req.offset, req.length);
  Readahead(req.file_id, first, last);
  ServeRead(std::move(req), true);
}

void PageCache::ServeRead(Request req, bool first_try) {
  const uint64_t first = PageOf(req.offset), last = LastPageOf(req.offset, req.length);
  if (!pages_.AllCached(first, last)) {
    if (first_try) counters_.read_miss_bytes += req.length;
    ReadPages(first, last, first, last);
    WaitForReads(first, last, [this, r = std::move(req)](Status st) mutable {
      if (!st.ok()) return r.done(std::move(st));
      ServeRead(std::move(r), false);
    });
    return;
  }
  if (first_try) counters_.read_hit_bytes += req.length;
  pages_.Touch(first, last);
  // The bytes are taken now (the pages are cached now); the copy to the
  // reader then takes its time.
  if (req.data) PatchBytes(req.offset, req.length, req.data);
  const Nanos end = cpu_.Copy(engine_.now(), req.length);
  CompleteAfter(end - engine_.now(), std::move(req));
}

Nanos PageCache::HoleRead(uint64_t offset, uint64_t length, bool direct) {
  if (direct) return cpu_.Zero(engine_.now(), length);
  // Whole pages are zeroed (a folio at a time), only the asked bytes copied.
  const uint64_t first = offset / kPage, last = (offset + length + kPage - 1) / kPage;
  const Nanos zeroed = cpu_.Zero(engine_.now(), (last - first) * kPage);
  return cpu_.Copy(zeroed, length);
}

bool PageCache::ReadsWithoutIo(uint32_t file, uint64_t offset, uint64_t length) const {
  if (length == 0) return true;
  const uint64_t first = PageOf(offset), last = LastPageOf(offset, length);
  if (!pages_.AllCached(first, last)) return false;
  const auto it = streams_.find(file);
  if (it == streams_.end()) return true;
  const Stream& s = it->second;
  const uint64_t marker = s.start + s.size - s.async;
  return !(s.marker && s.size > 0 && marker >= first && marker <= last);
}

void PageCache::Readahead(uint32_t file, uint64_t first, uint64_t last) {
  const auto adv = advice_.find(file);
  const Advice advice = adv == advice_.end() ? Advice::kNormal : adv->second;
  if (advice == Advice::kRandom) return;  // FMODE_RANDOM: "be dumb"
  const uint64_t max = config_.read_ahead_bytes / kPage * (advice == Advice::kSequential ? 2 : 1);
  if (max == 0) return;
  const uint64_t device_last = LastPageOf(0, geometry_.capacity);
  Stream& s = streams_[file];
  auto read_window = [&] {
    s.marker = s.async > 0;
    ReadPages(s.start, std::min(s.start + s.size - 1, device_last), first, last);
  };
  // The first page that is neither cached nor being read: a miss there is
  // a synchronous read-ahead (page_cache_sync_readahead).
  uint64_t index = UINT64_MAX;
  auto missing = pages_.MissingRuns(first, last);
  if (!missing.empty()) index = missing.front().first;

  if (index != UINT64_MAX) {
    const uint64_t req_pages = last - index + 1;
    const bool expected =
        s.size > 0 && (index == s.start + s.size - s.async || index == s.start + s.size);
    if (expected) {  // the stream goes on: push the window forward
      s.start += s.size;
      s.size = NextWindow(s.size, max);
      s.async = s.size;
    } else if (req_pages > max || s.prev_page == UINT64_MAX ||
               (index >= s.prev_page && index - s.prev_page <= 1)) {
      // A stream's first read counts as the start of its file (Linux reads
      // ahead from index 0); so does a read right after the previous one.
      s.start = index;  // initial_readahead
      s.size = InitWindow(req_pages, max);
      s.async = s.size > req_pages ? s.size - req_pages : s.size;
    } else {  // a small random read: read as is, keep the state
      s.prev_page = last;
      return;
    }
    // The read hits its own marker: merge the next window into this one.
    if (index == s.start && s.size == s.async) {
      const uint64_t add = NextWindow(s.size, max);
      if (s.size + add <= max) {
        s.async = add;
        s.size += add;
      } else {
        s.size = max;
        s.async = max / 2;
      }
    }
    read_window();
  } else if (s.marker && s.size > 0) {
    // A cached page carrying PG_readahead: asynchronous read-ahead.
    const uint64_t marker = s.start + s.size - s.async;
    if (marker >= first && marker <= last) {
      s.start += s.size;
      s.size = NextWindow(s.size, max);
      s.async = s.size;
      if (s.start <= device_last) read_window();
    }
  }
  s.prev_page = last;
}

void PageCache::ReadPages(uint64_t first, uint64_t last, uint64_t req_first, uint64_t req_last) {
  const uint64_t max_pages = config_.max_io_bytes / kPage;
  for (auto [start, count] : pages_.MissingRuns(first, last)) {
    for (uint64_t done = 0; done < count; done += max_pages) {
      const uint64_t p = start + done, n = std::min(max_pages, count - done);
      const uint64_t id = next_id_++;
      ReadOp& op = reads_[id];
      op.first = p;
      op.count = n;
      op.invalidations = invalidations_;
      const uint64_t bytes = RunBytes(p, n);
      if (config_.keeps_data) op.data.reset(new uint8_t[bytes]);
      pages_.SetReading(p, p + n - 1, true);
      counters_.child_read_bytes += bytes;
      const uint64_t in_req_lo = std::max(p, req_first), in_req_hi = std::min(p + n - 1, req_last);
      const uint64_t in_req = in_req_lo <= in_req_hi ? in_req_hi - in_req_lo + 1 : 0;
      counters_.readahead_bytes += (n - in_req) * kPage;
      Request r{.op = Op::kRead,
                .offset = p * kPage,
                .length = bytes,
                .data = op.data.get(),
                .done = [this, id](Status st) { OnReadDone(id, std::move(st)); }};
      child_.Submit(std::move(r));
    }
  }
}

void PageCache::OnReadDone(uint64_t id, Status st) {
  auto it = reads_.find(id);
  if (it == reads_.end()) return;
  ReadOp op = std::move(it->second);
  reads_.erase(it);
  const uint64_t last = op.first + op.count - 1;
  pages_.SetReading(op.first, last, false);
  if (st.ok() && op.invalidations == invalidations_) {
    // Fill the pages nobody wrote meanwhile (a write's data is newer).
    for (auto [p, n] : pages_.MissingRuns(op.first, last)) {
      pages_.MarkCached(p, p + n - 1);
      if (op.data) data_.Put(p * kPage, RunBytes(p, n), op.data.get() + (p - op.first) * kPage);
    }
    EvictOverflow();
  }
  // Wake the readers (and partial writers) this read was holding up.
  std::vector<Waiter> ready;
  for (size_t i = 0; i < read_waiters_.size();) {
    Waiter& w = read_waiters_[i];
    const bool overlaps = w.first <= last && op.first <= w.last;
    if ((overlaps && !st.ok()) || !pages_.AnyReading(w.first, w.last)) {
      ready.push_back(std::move(w));
      read_waiters_.erase(read_waiters_.begin() + static_cast<ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  for (Waiter& w : ready) {
    const bool overlaps = w.first <= last && op.first <= w.last;
    w.fn(overlaps && !st.ok() ? st : Status());
  }
}

void PageCache::WaitForReads(uint64_t first, uint64_t last, Callback<void(Status)> fn) {
  if (!pages_.AnyReading(first, last)) {
    engine_.After(Nanos(0), [f = std::move(fn)]() mutable { f(Status()); });
    return;
  }
  read_waiters_.push_back({first, last, std::move(fn)});
}

}  // namespace storlab
