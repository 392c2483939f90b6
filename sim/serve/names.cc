#include "sim/serve/names.h"

#include <algorithm>

#include "sim/oracle.h"
#include "sim/quoted.h"

namespace storlab {

std::string SomeNodeNames(const Stack& stack) {
  std::vector<std::string> names;
  for (const auto& n : stack.nodes()) {
    if (dynamic_cast<const Oracle*>(n.get()) != nullptr) continue;  // the service's own
    names.push_back(n->name());
  }
  return QuotedList(names);
}

Result<std::vector<std::string>> ResolveNodeNames(const Stack& stack,
                                                  const std::vector<std::string>& names,
                                                  std::string_view what) {
  std::vector<std::string> out;
  for (const std::string& name : names) {
    std::vector<std::string> found;
    if (stack.Find(name) != nullptr) {
      found.push_back(name);
    } else {
      for (int i = 0;; ++i) {
        std::string copy = name + "." + std::to_string(i);
        if (stack.Find(copy) == nullptr) break;
        found.push_back(std::move(copy));
      }
    }
    if (found.empty()) {
      return Status::NotFound(std::string(what) + " " + Quoted(name) + ": stack " +
                              Quoted(stack.name()) +
                              " has no such node (its nodes: " + SomeNodeNames(stack) + ")");
    }
    for (auto& f : found) {
      if (std::find(out.begin(), out.end(), f) != out.end()) {
        return Status::InvalidArgument(std::string(what) + " " + Quoted(f) + " is named twice");
      }
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace storlab
