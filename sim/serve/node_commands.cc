#include "sim/serve/node_commands.h"

#include "sim/layers/faults/faults_node.h"
#include "sim/node_faults.h"
#include "sim/oracle.h"
#include "sim/profile/units.h"
#include "sim/quoted.h"
#include "sim/serve/names.h"

namespace storlab {
namespace {

using K = ControlCommand::Kind;

// The parent of `n` among the stack's nodes (not an oracle), or nullptr.
Node* ParentOf(const Stack& stack, const Node& n) {
  for (const auto& p : stack.nodes()) {
    if (dynamic_cast<const Oracle*>(p.get()) != nullptr) continue;
    for (const Node* c : p->children())
      if (c == &n) return p.get();
  }
  return nullptr;
}

std::string FaultsNodes(const Stack& stack) {
  std::string s;
  for (const auto& n : stack.nodes()) {
    if (dynamic_cast<const FaultsNode*>(n.get()) == nullptr) continue;
    s += (s.empty() ? "" : ", ") + Quoted(n->name());
  }
  return s.empty() ? "it has none" : "its faults nodes: " + s;
}

std::string FailOrReplace(Stack& stack, Node& n, bool fail) {
  n.SetFailed(fail);
  std::string s = Quoted(n.name()) + (fail ? " has failed: every request to it gets EIO"
                                           : " is back in its slot, with the contents it had");
  if (Node* p = ParentOf(stack, n)) {
    Status st = fail ? p->OnChildFailed(n) : p->OnChildReplaced(n);
    s += st.ok() ? "; " + Quoted(p->name()) + " above it was told" : "; " + st.message();
  }
  return s;
}

}  // namespace

Result<Node*> CheckNodeCommand(const Stack& stack, const ControlCommand& cmd) {
  Node* n = stack.Find(cmd.node);
  if (n == nullptr || dynamic_cast<Oracle*>(n) != nullptr) {
    return Status::NotFound("no node " + Quoted(cmd.node) + " in stack " + Quoted(stack.name()) +
                            " (its nodes: " + SomeNodeNames(stack) + ")");
  }
  const uint64_t capacity = n->geometry().capacity;
  if (cmd.kind == K::kMediaError) {
    if (dynamic_cast<FaultsNode*>(n) == nullptr) {
      return Status::NotSupported(
          Quoted(n->name()) + " is a " + std::string(n->type()) +
          " node: media errors are a faults node's (type = \"faults\" above the device; " +
          FaultsNodes(stack) + ")");
    }
    if (cmd.offset > capacity || cmd.length > capacity - cmd.offset) {
      return Status::OutOfRange("the range " + std::to_string(cmd.offset) + "+" +
                                std::to_string(cmd.length) + " ends beyond " + Quoted(n->name()) +
                                " (" + std::to_string(capacity) + " bytes)");
    }
  }
  if (cmd.kind == K::kCorrupt && cmd.offset >= capacity) {
    return Status::OutOfRange("offset " + std::to_string(cmd.offset) + " is beyond " +
                              Quoted(n->name()) + " (" + std::to_string(capacity) + " bytes)");
  }
  return n;
}

Result<std::string> RunNodeCommand(Stack& stack, const ControlCommand& cmd) {
  ASSIGN_OR_RETURN(Node * n, CheckNodeCommand(stack, cmd));
  const std::string name = Quoted(n->name());
  const NodeFaults* f = n->faults_if_any();
  switch (cmd.kind) {
    case K::kFail:
    case K::kReplace: {
      const bool fail = cmd.kind == K::kFail;
      if (fail == n->failed()) {
        return Status::InvalidArgument(
            name + (fail ? " has already failed" : " has not failed (fail it first)"));
      }
      return FailOrReplace(stack, *n, fail);
    }
    case K::kDetach:
      if (f != nullptr && f->detached) return Status::InvalidArgument(name + " is detached");
      n->faults().detached = true;
      return name +
             " is detached: every new request to it gets EIO (requests in service finish; the "
             "layer above is not told)";
    case K::kAttach:
      if (f == nullptr || !f->detached) {
        return Status::InvalidArgument(name + " is not detached (detach it first)");
      }
      n->faults().detached = false;
      return name + " is attached again, with the contents it had";
    case K::kDelay: {
      NodeFaults& nf = n->faults();
      nf.delay = cmd.delay;
      nf.delay_until = n->engine().now() + cmd.window;
      return "requests that reach " + name + " in the next " + FormatDuration(cmd.window) +
             " wait " + FormatDuration(cmd.delay) + " before it acts on them";
    }
    case K::kMediaError: {
      auto* faults = static_cast<FaultsNode*>(n);
      faults->AddMediaError(cmd.offset, cmd.length);
      const bool heal = faults->config().bad_writes == FaultsNode::BadWrites::kRemap;
      return "reads of " + std::to_string(cmd.offset) + "+" + std::to_string(cmd.length) + " on " +
             name + " fail with EIO " +
             (heal ? "until it is rewritten (a write remaps the sectors)"
                   : "and so do writes (media_error_writes = \"fail\")");
    }
    case K::kCorrupt: {
      const uint64_t lb = n->geometry().logical_block;
      const uint64_t block = cmd.offset / lb * lb;
      n->faults().corrupt.insert(block);
      return "the " + std::to_string(lb) + "-byte block at " + std::to_string(block) + " of " +
             name + " reads back corrupted (no error) until it is rewritten";
    }
    case K::kIgnoreFua:
      if (f != nullptr && f->ignore_fua) {
        return Status::InvalidArgument(name + " already ignores FUA");
      }
      n->IgnoreFua();
      return name +
             " drops the FUA flag of writes from now on (its capabilities say so: what that "
             "loses is a promise " +
             name + " breaks)";
    case K::kNone:
    case K::kPowerCut:
    case K::kFlush:
    case K::kResetStats:
    case K::kStats:
    case K::kHelp:
      break;
  }
  return Status::Internal(std::string(cmd.verb()) + " does not act on one node");
}

}  // namespace storlab
