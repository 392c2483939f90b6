#include "sim/stack_state.h"

#include <map>
#include <sstream>

#include "sim/node_kind.h"
#include "sim/state_coding.h"

namespace storlab {
namespace {

constexpr char kMagic[] = "storlab-node-state";

bool Watcher(const Node& n) { return n.kind() == NodeKind::kOracle; }

}  // namespace

std::string StackIdentity(std::string_view resolved) {
  std::string out, table;
  std::istringstream in{std::string(resolved)};
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t c = line.find("  # ");
    if (c != std::string::npos) line.erase(c);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (line[0] == '[') table = line;
    if (table == "[stack]" && line.rfind("name = ", 0) == 0) continue;
    if (!line.empty()) out += line + "\n";
  }
  return out;
}

Status CheckStackCanSave(const Stack& stack) {
  for (const auto& n : stack.nodes()) {
    if (Watcher(*n)) continue;
    if (!n->CanSaveState()) return n->StateRefused();
  }
  return Status();
}

Result<std::vector<StateImage::Part>> SaveStackNodes(const Stack& stack) {
  RETURN_IF_ERROR(CheckStackCanSave(stack));
  std::vector<StateImage::Part> parts;
  for (const auto& n : stack.nodes()) {
    if (Watcher(*n)) continue;
    StateWriter w;
    w.Bytes(kMagic);
    w.U64(StateImage::kFormat);
    w.Bytes(n->type());
    w.Bytes(n->name());
    w.Bool(n->failed());
    RETURN_IF_ERROR(n->SaveState(w).WithContext("node " + n->name()));
    parts.push_back(
        {.kind = "node", .name = n->name(), .type = std::string(n->type()), .bytes = w.Take()});
  }
  return parts;
}

Status RestoreStackNodes(Stack& stack, const StateImage& image, const std::string& dir) {
  std::map<std::string, const StateImage::Part*> by_name;
  for (const auto& p : image.parts) {
    if (p.kind == "node") by_name[p.name] = &p;
  }
  for (const auto& n : stack.nodes()) {
    if (Watcher(*n)) continue;
    auto it = by_name.find(n->name());
    if (it == by_name.end()) {
      return Status::InvalidArgument("state " + dir + " has no part for node " + n->name());
    }
    const StateImage::Part& p = *it->second;
    StateReader r(p.bytes, dir + "/" + StatePartFile(p));
    if (r.Bytes() != kMagic) r.Fail("not a node's state");
    if (r.ok() && r.U64() != StateImage::kFormat) r.Fail("another format");
    if (r.ok() && r.Bytes() != n->type()) r.Fail("saved from a node of another type");
    if (r.ok() && r.Bytes() != n->name()) r.Fail("saved from another node");
    const bool failed = r.Bool();
    RETURN_IF_ERROR(r.status());
    RETURN_IF_ERROR(n->RestoreState(r));
    RETURN_IF_ERROR(r.Finish());
    n->SetFailed(failed);
    by_name.erase(it);
  }
  if (!by_name.empty()) {
    return Status::InvalidArgument("state " + dir + " has a part for node " +
                                   by_name.begin()->first + ", which this stack does not have");
  }
  return Status();
}

}  // namespace storlab
