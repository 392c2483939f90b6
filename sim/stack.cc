#include "sim/stack.h"

#include <algorithm>
#include <set>

#include "sim/port.h"
#include "sim/trace.h"

namespace storlab {

Stack::Stack(Engine& engine, std::string name, uint64_t seed, DataMode data_mode)
    : engine_(engine), name_(std::move(name)), seed_(seed), data_mode_(std::move(data_mode)) {}

Stack::~Stack() {
  // Parents hold references to children: destroy in reverse creation order.
  while (!nodes_.empty()) nodes_.pop_back();
}

Node* Stack::Find(std::string_view name) const {
  for (const auto& n : nodes_)
    if (n->name() == name) return n.get();
  return nullptr;
}

size_t Stack::PowerCut() {
  if (tracer_) tracer_->PowerCut(engine_.now());
  engine_.Clear();
  // Every tree of the forest (a spare disk not yet in its array is one too).
  std::set<const Node*> has_parent;
  for (const auto& n : nodes_)
    for (Node* c : n->children()) has_parent.insert(c);
  for (const auto& n : nodes_)
    if (!has_parent.count(n.get())) n->PowerCut();
  size_t aborted = 0;
  for (Port* p : ports_) aborted += p->AbortAll(Status::Aborted("power cut"));
  return aborted;
}

void Stack::RemovePort(Port* port) {
  ports_.erase(std::remove(ports_.begin(), ports_.end(), port), ports_.end());
}

void Stack::SetTracer(Tracer* tracer) {
  tracer_ = tracer;
  for (const auto& n : nodes_) {
    if (tracer_) {
      Trace(*n);
    } else {
      n->set_tracer(nullptr);
    }
  }
}

void Stack::Trace(Node& node) {
  std::vector<std::string_view> kids;
  for (const Node* c : node.children()) kids.push_back(c->name());
  tracer_->DescribeNode(node.name(), node.type(), node.caps().volatile_cache,
                        node.traces_volatile(), kids);
  node.set_tracer(tracer_);
}

void Stack::ResetStats() {
  for (const auto& n : nodes_) n->ResetStats();
}

}  // namespace storlab
