#include "sim/serve/names.h"

#include <algorithm>

#include "sim/oracle.h"

namespace storlab {

std::string QuoteName(std::string_view s) {
  std::string out = "'";
  for (size_t i = 0; i < s.size() && i < 60; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  if (s.size() > 60) out += "...";
  return out + "'";
}

std::string SomeNodeNames(const Stack& stack, size_t most) {
  std::string out;
  const auto& nodes = stack.nodes();
  size_t shown = 0;
  for (const auto& n : nodes) {
    if (dynamic_cast<const Oracle*>(n.get()) != nullptr) continue;  // the service's own
    if (shown == most) {
      out += " and more";
      break;
    }
    out += (shown ? ", " : "") + QuoteName(n->name());
    ++shown;
  }
  return out;
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
      return Status::NotFound(std::string(what) + " " + QuoteName(name) + ": stack '" +
                              stack.name() +
                              "' has no such node (its nodes: " + SomeNodeNames(stack) + ")");
    }
    for (auto& f : found) {
      if (std::find(out.begin(), out.end(), f) != out.end()) {
        return Status::InvalidArgument(std::string(what) + " " + QuoteName(f) + " is named twice");
      }
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace storlab
