#include "workloads/fio/io_buffers.h"

#include <algorithm>
#include <cstring>

#include "workloads/fio/fio_pattern.h"

namespace storlab::fio {

IoBuffers::IoBuffers(size_t slots, uint64_t size, uint64_t seed, BufferFill fill)
    : size_(size),
      fill_(std::move(fill)),
      rng_(seed, "fio/buffers"),
      prev_(rng_),
      dedupe_rng_(seed, "fio/dedupe"),
      ws_index_rng_(seed, "fio/dedupe-ws") {
  if (fill_.dedupe_percent && fill_.dedupe_working_set) MakeWorkingSet();
  for (size_t i = 0; i < slots; ++i) {
    bufs_.emplace_back(new uint8_t[size]);
    Fill(bufs_.back().get(), size);
  }
}

void IoBuffers::FillRandom(Random& rng, uint8_t* buf, uint64_t len) {
  for (uint64_t at = 0; at < len; at += 8) {
    const uint64_t r = rng.Next();
    std::memcpy(buf + at, &r, std::min<uint64_t>(8, len - at));
  }
}

void IoBuffers::Fill(uint8_t* buf, uint64_t len) {
  if (fill_.dedupe_percent) return FillDedupe(buf, len);
  switch (fill_.kind) {
    case BufferFill::Kind::kRandom:
      return FillRandom(rng_, buf, len);
    case BufferFill::Kind::kZero:
      std::memset(buf, 0, len);
      return;
    case BufferFill::Kind::kPattern:
      return FillPattern(fill_.pattern, buf, len);
    case BufferFill::Kind::kCompress:
      return FillChunks(rng_, buf, len);
  }
}

// fill_io_buffer() with compress_percentage (or dedupe_percentage): chunks
// of min_not_zero(min(min_write, left), compress_chunk), each from a fresh
// seed: (100 - P) % random, the rest zeros or the pattern
// (lib/rand.c __fill_random_buf_percentage with segment = len).
void IoBuffers::FillChunks(Random& rng, uint8_t* buf, uint64_t len) {
  uint64_t left = len;
  while (left > 0) {
    const uint64_t mw = std::min(fill_.min_write, left);
    const uint64_t chunk = mw == 0                     ? fill_.compress_chunk
                           : fill_.compress_chunk == 0 ? mw
                                                       : std::min(mw, fill_.compress_chunk);
    const uint64_t random = std::min(chunk * (100 - fill_.compress_percent) / 100, chunk);
    FillRandom(rng, buf, random);
    if (fill_.pattern.empty()) {
      std::memset(buf + random, 0, chunk - random);
    } else {
      FillPattern(fill_.pattern, buf + random, chunk - random);
    }
    buf += chunk;
    left -= chunk;
  }
}

// io_u.c get_buf_state() and save_buf_state(): which generator state the
// buffer is made from, and what is kept of it.
void IoBuffers::FillDedupe(uint8_t* buf, uint64_t len) {
  const uint32_t p = fill_.dedupe_percent;
  Random again = prev_;
  Random* rs = &rng_;
  if (p == 100) {
    prev_ = rng_;
  } else if (1 + dedupe_rng_.Next() % 100 <= p) {  // rand_between(&dedupe_state, 1, 100)
    if (fill_.dedupe_working_set) again = ws_[ws_index_rng_.Next() % ws_.size()];
    rs = &again;
  }
  FillChunks(*rs, buf, len);
  if (p == 100) {
    rng_ = prev_;  // the generator never moves on: every buffer the same
  } else if (rs == &rng_) {
    prev_ = rng_;
  }
}

// dedupe.c init_dedupe_working_set_seeds(): the state of each of the first
// dedupe_pages buffers of min_write bytes; with dedupe_global, every
// max(pages / jobs, 1) pages the next job's generator takes over, from its
// start.
void IoBuffers::MakeWorkingSet() {
  const uint64_t pages = std::max<uint64_t>(fill_.dedupe_pages, 1);
  const size_t jobs = fill_.dedupe_seeds.size();
  const uint64_t per_seed = jobs ? std::max<uint64_t>(pages / jobs, 1) : pages;
  std::vector<uint8_t> scratch(fill_.min_write);
  Random cur = rng_;
  size_t who = fill_.dedupe_index;
  ws_.reserve(pages);
  ws_.push_back(cur);
  for (uint64_t i = 1; i < pages; ++i) {
    FillChunks(cur, scratch.data(), scratch.size());
    if (jobs && i % per_seed == 0) {
      who = (who + 1) % jobs;
      cur = Random(fill_.dedupe_seeds[who], "fio/buffers");
    }
    ws_.push_back(cur);
  }
}

void IoBuffers::BeforeWrite(size_t i, uint64_t length, uint64_t offset, Nanos start) {
  if (fill_.refill) return Fill(bufs_[i].get(), std::min(length, size_));
  if (fill_.scramble) Scramble(i, length, offset, start);
}

void IoBuffers::Scramble(size_t i, uint64_t length, uint64_t offset, Nanos start) {
  const uint64_t ns = static_cast<uint64_t>(start.count());
  const uint64_t sec = ns / 1'000'000'000, nsec = ns % 1'000'000'000;
  const unsigned line = static_cast<unsigned>((nsec ^ offset) & 7);
  uint8_t* p = bufs_[i].get();
  uint64_t boffset = offset;
  for (uint64_t at = 0; at + 512 <= length && at + 512 <= size_; at += 512) {
    std::memcpy(p + at + (line << 6), &boffset, 8);
    std::memcpy(p + at + 64 - 16, &sec, 8);
    std::memcpy(p + at + 64 - 8, &nsec, 8);
    boffset += 512;
  }
}

}  // namespace storlab::fio
