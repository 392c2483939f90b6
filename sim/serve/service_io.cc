// The request path of the service (service.h): a transport thread posts a
// request to the engine thread, backdated by the compensator's estimate of
// the transport's round trip; the model completes it through the export's
// Port; the answer goes back to a transport thread (the waiting caller of
// Session::Do, or a reply thread for Session::Submit).
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

#include "sim/serve/service.h"

namespace storlab {

// When a request arrived (wall clock; simulated time before any backdate)
// and when the model completed it (simulated time).
struct Session::Timing {
  int64_t arrive_wall = 0;
  Nanos arrive_sim, done_sim;
};

namespace {

// A blocked caller of Session::Do. Set() notifies while holding the lock,
// so the caller cannot return (and destroy it) until it is done with it.
struct Waiter {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  Status status;
  Session::Timing timing;
  Service::ReadCheck check;
  int64_t set_wall = -1;  // when the model completed it on another thread
  void Set(Status st) {
    std::lock_guard<std::mutex> l(m);
    status = std::move(st);
    done = true;
    cv.notify_one();
  }
  Status Wait() {
    std::unique_lock<std::mutex> l(m);
    cv.wait(l, [&] { return done; });
    return std::move(status);
  }
};

// How deep this thread is in sending answers itself (Session::Submit).
thread_local int tls_answering = 0;

uint64_t RequestBytes(const ExportRequest& r) { return r.op == Op::kWrite ? r.length : 0; }
uint64_t AnswerBytes(const ExportRequest& r) { return r.op == Op::kRead ? r.length : 0; }

}  // namespace

Status Session::Precheck(const ExportRequest& req) const {
  const ExportInfo& info = svc_.infos_[export_];
  // The maximum bounds a payload (NBD's rule): trim, write-zeroes and a
  // prefetch carry none, and may cover any range.
  const bool payload = req.op == Op::kWrite || (req.op == Op::kRead && req.data != nullptr);
  if (payload && req.length > info.max_block) {
    return Status::InvalidArgument(info.name + ": " + OpName(req.op) + " of " +
                                   std::to_string(req.length) + " bytes is larger than " +
                                   std::to_string(info.max_block) + ", the most it accepts");
  }
  if (req.op == Op::kWriteZeroes && req.fast_zero && !info.fast_zero) {
    return Status::NotSupported(info.name + ": no fast zero (it would write zeros)");
  }
  return Status();
}

Nanos Session::Arrive(const ExportRequest& req, Timing& t) {
  const int64_t now = svc_.options_.clock->NowNanos();
  t.arrive_wall = now;
  std::optional<Nanos> gap;
  uint64_t bytes;
  {
    std::lock_guard<std::mutex> l(mu_);
    // The bytes a round trip carries: the previous answer's and this request's.
    bytes = (outstanding_ == 0 ? last_answer_bytes_ : 0) + RequestBytes(req);
    if (outstanding_ == 0 && last_answer_wall_ >= 0) gap = Nanos(now - last_answer_wall_);
    ++outstanding_;
  }
  if (gap) svc_.comp_.ObserveIdleGap(bytes, *gap);
  return svc_.comp_.Deduction(bytes, gap);
}

void Session::Answered(const ExportRequest& req, const Timing& t) {
  const int64_t now = svc_.options_.clock->NowNanos();
  // What the service added beyond the model's own delay after arrival.
  const Nanos model = t.done_sim - t.arrive_sim;
  if (model > Nanos(0)) svc_.comp_.ObserveOverhead(Nanos(now - t.arrive_wall) - model);
  std::lock_guard<std::mutex> l(mu_);
  --outstanding_;
  last_answer_wall_ = now;
  last_answer_bytes_ = AnswerBytes(req);
}

Status Session::Do(const ExportRequest& req) {
  ++svc_.submitted_;
  Status pre = Precheck(req);
  if (!pre.ok() || !svc_.Enter()) {
    ++svc_.refused_;
    return pre.ok() ? Status::Aborted("the service is shutting down") : pre;
  }
  Waiter w;
  const Nanos backdate = Arrive(req, w.timing);
  Service* svc = &svc_;
  const int e = export_;
  const std::thread::id caller = std::this_thread::get_id();
  RealtimeDriver::Work work = [svc, e, &req, &w, caller] {
    w.timing.arrive_sim = svc->driver_.arrival_sim();
    svc->StartIo(e, req, w.check, [svc, &req, &w, caller](Status st) {
      w.check.Capture(req, st);
      w.timing.done_sim = svc->engine_.now();
      if (std::this_thread::get_id() != caller) w.set_wall = svc->options_.clock->NowNanos();
      // Woken once this batch has let go of the engine (realtime_driver.h).
      svc->driver_.AfterRelease([&w, st = std::move(st)]() mutable { w.Set(std::move(st)); });
    });
  };
  // On this thread if the engine is free (a request the model answers at
  // once then costs no thread switch); else through the driver's inbox.
  Status posted;
  if (!svc_.driver_.RunHere(work, backdate)) posted = svc_.driver_.Post(std::move(work), backdate);
  Status st = posted.ok() ? w.Wait() : posted;
  Service::FinishCheck(req, w.check);
  if (w.set_wall >= 0) {
    const int64_t woke = svc_.options_.clock->NowNanos() - w.set_wall;
    std::lock_guard<std::mutex> l(svc_.hand_back_mu_);
    svc_.hand_back_.Add(woke > 0 ? static_cast<uint64_t>(woke) : 0);
  }
  Answered(req, w.timing);
  ++svc_.completed_;
  svc_.Leave();
  return st;
}

void Session::Submit(const ExportRequest& req, Reply reply) {
  ++svc_.submitted_;
  Status pre = Precheck(req);
  if (!pre.ok() || !svc_.Enter()) {
    ++svc_.refused_;
    svc_.replies_.Push([reply = std::move(reply), pre]() mutable {
      reply(pre.ok() ? Status::Aborted("the service is shutting down") : pre);
    });
    return;
  }
  // The request and its reply live on the heap until the reply has run.
  struct Pending {
    ExportRequest req;
    Reply reply;
    Timing timing;
    Service::ReadCheck check;
  };
  auto* p = new Pending{req, std::move(reply), {}, {}};
  const Nanos backdate = Arrive(req, p->timing);
  Service* svc = &svc_;
  const int e = export_;
  auto finish = [this, p](Status st) {
    Service::FinishCheck(p->req, p->check);
    // The bookkeeping first: once answered, the client may close the session.
    Answered(p->req, p->timing);
    ++svc_.completed_;
    Service& s = svc_;
    Reply reply = std::move(p->reply);
    delete p;
    reply(std::move(st));
    s.Leave();
  };
  RealtimeDriver::Work work = [svc, e, p, finish] {
    p->timing.arrive_sim = svc->driver_.arrival_sim();
    svc->StartIo(e, p->req, p->check, [svc, p, finish](Status st) {
      p->check.Capture(p->req, st);
      p->timing.done_sim = svc->engine_.now();
      // Answered on the driver's thread: a reply thread sends it, so the
      // simulated clock never waits for the kernel. Answered at once on a
      // transport thread that runs the engine (RunHere: a model that answers
      // without delay): that thread sends it once it has let go of the
      // engine, saving a thread hand-off — unless it is sending such an
      // answer already, whose reply made this request (a chain, as
      // BlockIo's chunks): then a reply thread, so the chain cannot recurse.
      if (svc->driver_.OnDriverThread() || tls_answering > 0) {
        svc->replies_.Push([finish, st = std::move(st)]() mutable { finish(std::move(st)); });
      } else {
        svc->driver_.AfterRelease([finish, st = std::move(st)]() mutable {
          ++tls_answering;
          finish(std::move(st));
          --tls_answering;
        });
      }
    });
  };
  // Waiting for the engine when another thread runs it (a few
  // microseconds) costs less than two hand-offs, to the driver's thread and
  // from it to a reply thread (FUSE on `ram` with 2 GiB of data, 4K random
  // reads at QD32: 68-80k -> 88-98k IOPS, alternated runs). Session::Do
  // does not wait: its thread blocks for the answer anyway (one hand-off
  // either way), and with nbdkit's 64 threads waiting made no difference
  // (NBD 4K reads at QD32 on `ram`, three alternated runs: 78/65/77k
  // waiting, 84/73/60k not).
  Status posted;
  if (!svc_.driver_.RunHere(work, backdate, /*wait=*/true))
    posted = svc_.driver_.Post(std::move(work), backdate);
  if (!posted.ok()) svc_.replies_.Push([finish, posted]() mutable { finish(posted); });
}

void Service::StartIo(int e, const ExportRequest& req, ReadCheck& check, Completion done) {
  comp_.RecordApplied(driver_.arrival_sim() - engine_.now());
  Oracle* oracle = exports_[e].oracle;
  if (oracle != nullptr && req.op == Op::kRead && req.data != nullptr) {
    check.oracle = oracle;
    check.mark = oracle->read_mark();
  }
  exports_[e].port->Submit(Request{.op = req.op,
                                   .flags = req.flags,
                                   .offset = req.offset,
                                   .length = req.op == Op::kFlush ? 0 : req.length,
                                   .data = req.data,
                                   .done = std::move(done)});
}

void Service::ReadCheck::Capture(const ExportRequest& req, const Status& st) {
  if (oracle == nullptr) return;
  if (st.ok()) {
    oracle->CaptureRead(req.offset, req.length, mark, capture);
  } else {
    oracle = nullptr;  // a failed read returned nothing to check
  }
}

// Hashing and comparing a 1 MiB read's 2,048 blocks costs ~100 us of CPU:
// here, on the thread that answers, it no longer holds the engine (and so
// every other request) back.
void Service::FinishCheck(const ExportRequest& req, ReadCheck& check) {
  if (check.oracle == nullptr) return;
  check.oracle->CheckCaptured(check.capture, req.data);
  check.oracle = nullptr;
}

}  // namespace storlab
