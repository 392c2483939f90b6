// Port: where requests enter a stack from outside it — an export's client,
// a control command, a test — as opposed to requests one node of the stack
// sends another.
//
// A port tracks every request in flight through it, so that each gets
// exactly one answer even when the stack cannot give one: a power cut
// (Stack::PowerCut) forgets the work in flight inside the stack, and the
// port then completes each of its requests with kAborted (EIO to a client),
// as a host sees its disk's commands fail when the disk loses power. A
// completion that arrives after the port gave up on a request is ignored.
//
// Not thread-safe: the engine's thread owns a port, like any node.
#ifndef STORLAB_SIM_PORT_H_
#define STORLAB_SIM_PORT_H_

#include <cstddef>
#include <cstdint>

#include "sim/node.h"
#include "sim/request.h"
#include "sim/slot_pool.h"
#include "sim/status.h"

namespace storlab {

class Stack;

class Port {
 public:
  // Registers with `stack` (which then aborts this port's requests at a
  // power cut). REQUIRES: `entry` is on the stack's engine and outlives the
  // port; the port is destroyed before the stack.
  Port(Stack& stack, Node& entry);
  ~Port();
  Port(const Port&) = delete;
  Port& operator=(const Port&) = delete;

  Node& entry() const { return entry_; }
  // Submits `req` to the entry node; its completion runs exactly once.
  void Submit(Request req);
  size_t in_flight() const { return in_flight_; }
  // Completes every request in flight with `st`, each from an engine event
  // at now(). Returns how many there were.
  size_t AbortAll(const Status& st);

 private:
  struct Slot {
    Completion done;
    uint32_t generation = 0;
    bool busy = false;
  };
  void Finish(uint32_t slot, uint32_t generation, Status st);

  Stack& stack_;
  Node& entry_;
  SlotPool<Slot> slots_;
  size_t in_flight_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_PORT_H_
