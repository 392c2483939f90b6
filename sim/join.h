// Join: completes one callback when a group of child requests has completed.
//
// A layer that splits a request arms one completion per child (Arm()), then
// Seal()s the group. The callback runs once, with the first error (or OK),
// after the last child completes — or, if no child was armed, from an
// engine event at the current time, so it never runs inside Submit().
// Held by shared_ptr; not thread-safe.
#ifndef STORLAB_SIM_JOIN_H_
#define STORLAB_SIM_JOIN_H_

#include <memory>

#include "sim/engine.h"
#include "sim/request.h"

namespace storlab {

class Join : public std::enable_shared_from_this<Join> {
 public:
  static std::shared_ptr<Join> Make(Completion done) {
    return std::shared_ptr<Join>(new Join(std::move(done)));
  }
  // A completion for one more child.
  Completion Arm() {
    ++pending_;
    return [self = shared_from_this()](Status s) { self->Arrive(std::move(s)); };
  }
  // No more children will be armed.
  void Seal(Engine& engine) {
    sealed_ = true;
    if (pending_ == 0) {
      engine.After(Nanos(0), [self = shared_from_this()] { self->Finish(); });
    }
  }

 private:
  explicit Join(Completion done) : done_(std::move(done)) {}
  void Arrive(Status s) {
    if (!s.ok() && st_.ok()) st_ = std::move(s);
    if (--pending_ == 0 && sealed_) Finish();
  }
  void Finish() {
    if (done_) {
      Completion d = std::move(done_);
      d(std::move(st_));
    }
  }

  Completion done_;
  Status st_;
  int pending_ = 0;
  bool sealed_ = false;
};

}  // namespace storlab

#endif  // STORLAB_SIM_JOIN_H_
