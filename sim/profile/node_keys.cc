#include "sim/profile/node_keys.h"

#include <algorithm>
#include <memory>

#include "sim/engine.h"
#include "sim/profile/factories/factories.h"
#include "sim/profile/node_types.h"
#include "sim/quoted.h"

namespace storlab {
namespace {

std::string Children(int n) { return std::to_string(n) + (n == 1 ? " child" : " children"); }

// The keys `type` reads when built over `n` stand-in children.
Result<std::vector<Params::Described>> DescribeWith(const NodeType& type, int n) {
  Engine engine;
  DataMode none;
  none.kind = DataMode::Kind::kNone;
  std::vector<std::unique_ptr<Node>> kids;
  std::vector<Node*> children;
  for (int i = 0; i < n; ++i) {
    const std::string name = "child" + std::to_string(i);
    Params defaults(name, "", {});
    BuildContext kid{engine, 1, none, name, {}, {}};
    ASSIGN_OR_RETURN(auto made, MakeRamDisk(defaults, kid));
    children.push_back(made.get());
    kids.push_back(std::move(made));
  }
  Params p = Params::Describing(std::string(type.name));
  BuildContext ctx{engine, 1, none, std::string(type.name), children, {}};
  (void)type.make(p, ctx);  // stops at its first Finish(), every key read
  return p.described();
}

}  // namespace

Result<std::vector<Params::Described>> DescribeNodeType(std::string_view name) {
  const NodeType* type = FindNodeType(name);
  if (type == nullptr) {
    std::string known;
    for (const auto& t : NodeTypes()) known += (known.empty() ? "" : ", ") + std::string(t.name);
    return Status::NotFound("unknown node type " + Quoted(name) + " (known: " + known + ")");
  }
  const int fewest = type->min_children;
  ASSIGN_OR_RETURN(auto keys, DescribeWith(*type, fewest));
  if (type->max_children > fewest) {
    const int most = type->max_children;
    ASSIGN_OR_RETURN(auto more, DescribeWith(*type, most));
    for (auto& k : keys) {
      auto it =
          std::find_if(more.begin(), more.end(), [&](const auto& m) { return m.key == k.key; });
      if (it != more.end() && it->fallback != k.fallback) {
        k.fallback += " (" + Children(fewest) + "), " + it->fallback + " (" + Children(most) + ")";
      }
    }
    for (const auto& m : more) {
      if (std::none_of(keys.begin(), keys.end(), [&](const auto& k) { return k.key == m.key; })) {
        keys.push_back(m);
      }
    }
  }
  return keys;
}

std::string FormatNodeKeys(const std::vector<Params::Described>& keys) {
  std::vector<std::vector<std::string>> rows = {{"KEY", "TYPE", "UNIT", "DEFAULT", "RANGE"}};
  for (const auto& k : keys) rows.push_back({k.key, k.type, k.unit, k.fallback, k.range});
  std::vector<size_t> width(5, 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  std::string out;
  for (size_t row = 0; row < rows.size(); ++row) {
    std::string line;
    for (size_t i = 0; i < 5; ++i) {
      line += rows[row][i];
      line.append(width[i] - rows[row][i].size() + 2, ' ');
    }
    out += line + (row == 0 ? "MEANING" : keys[row - 1].meaning) + "\n";
  }
  return out;
}

}  // namespace storlab
