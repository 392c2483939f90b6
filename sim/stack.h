// Stack: the nodes of one simulated storage stack, built from a profile.
//
// Owns its nodes (children are created before parents and destroyed after
// them), knows its root, its seed and how it keeps data. The engine is the
// caller's, so a run can put more than one stack, or a workload, on one clock.
// Not thread-safe.
#ifndef STORLAB_SIM_STACK_H_
#define STORLAB_SIM_STACK_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine.h"
#include "sim/node.h"
#include "sim/store/store.h"

namespace storlab {

class Port;
class Tracer;

class Stack {
 public:
  Stack(Engine& engine, std::string name, uint64_t seed, DataMode data_mode);
  ~Stack();
  Stack(const Stack&) = delete;
  Stack& operator=(const Stack&) = delete;

  // Takes ownership of `node` and returns it. Nodes must be adopted children
  // first. The last adopted node becomes the root unless set_root() says
  // otherwise.
  template <typename T>
  T& Adopt(std::unique_ptr<T> node) {
    T& ref = *node;
    nodes_.push_back(std::move(node));
    root_ = &ref;
    if (tracer_) Trace(ref);
    return ref;
  }
  void set_root(Node* root) { root_ = root; }

  Node& root() const { return *root_; }
  Node* Find(std::string_view name) const;
  // Every node, children before parents.
  const std::vector<std::unique_ptr<Node>>& nodes() const { return nodes_; }

  Engine& engine() const { return engine_; }
  const std::string& name() const { return name_; }
  uint64_t seed() const { return seed_; }
  const DataMode& data_mode() const { return data_mode_; }
  std::string description;

  // Cuts the power: pending events are dropped and every node drops its
  // volatile state. Requests in flight between nodes are forgotten; those
  // that entered through a Port are answered with kAborted (from engine
  // events at now(), after the stack has been reset). Returns how many.
  size_t PowerCut();
  void ResetStats();

  // Traces every node (sim/trace.h), and nodes adopted later; a power cut
  // writes its line first. nullptr: stop tracing. `tracer` must outlive
  // its use here.
  void SetTracer(Tracer* tracer);
  Tracer* tracer() const { return tracer_; }

  // Called by Port's constructor and destructor.
  void AddPort(Port* port) { ports_.push_back(port); }
  void RemovePort(Port* port);

 private:
  Engine& engine_;
  std::string name_;
  uint64_t seed_;
  DataMode data_mode_;
  std::vector<std::unique_ptr<Node>> nodes_;
  Node* root_ = nullptr;
  std::vector<Port*> ports_;
  Tracer* tracer_ = nullptr;

  void Trace(Node& node);  // describes `node` to the tracer and attaches it
};

}  // namespace storlab

#endif  // STORLAB_SIM_STACK_H_
