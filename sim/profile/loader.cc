// Building a stack from parsed stack files (stack_file.h): checks that the
// nodes form a tree, expands `count` and `use`, makes each node through its
// type (node_types.h), and writes the resolved stack.
#include "sim/profile/loader.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <vector>

#include "sim/profile/host.h"
#include "sim/profile/node_types.h"
#include "sim/profile/params.h"
#include "sim/profile/stack_file.h"
#include "sim/profile/toml_precheck.h"
#include "sim/quoted.h"

namespace storlab {
namespace {

// `text` as the inside of a TOML basic string: backslash, quote and control
// characters escaped (so a resolved listing loads back).
std::string TomlEscaped(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

using stack_file::FileSpec;
using stack_file::NodeSpec;
using stack_file::ParseFile;
using stack_file::RawMap;
using stack_file::ReadSource;
using stack_file::Source;

using stack_file::kMaxNodes;

constexpr int kMaxUseDepth = 16;

// " (16000000000000 bytes)" after a size written with a unit: stack files
// read KiB as 1024 and KB as 1000 (fio's job files differ: see --cmdhelp).
std::string BytesNote(const Params::Used& u) {
  return u.bytes.empty() ? "" : " (" + u.bytes + " bytes)";
}

class Builder {
 public:
  Builder(Engine& engine, const BuildOptions& options) : engine_(engine), options_(options) {}

  // Builds every node of `spec` into `stack`; returns its root. `outer` is
  // the name the root takes ("" for the top file: names stay as written);
  // `overrides` replace keys of the root node.
  Result<Node*> BuildFile(const FileSpec& spec, const std::string& outer, const RawMap* overrides,
                          int depth) {
    // Parents and root.
    std::map<std::string, std::string> parent;
    for (const auto& [name, n] : spec.nodes) {
      for (const auto& c : n.children) {
        if (!spec.nodes.count(c)) {
          return Status::InvalidArgument(n.children_where + ": node " + Quoted(name) + ": child " +
                                         Quoted(c) + " is not defined (no [node.NAME] table)");
        }
        if (c == name) {
          return Status::InvalidArgument(n.children_where + ": node " + Quoted(name) +
                                         " lists itself as a child");
        }
        auto [it, fresh] = parent.emplace(c, name);
        if (!fresh) {
          return Status::InvalidArgument(n.children_where + ": node " + Quoted(c) +
                                         " already has a parent (" + Quoted(it->second) +
                                         "); a stack is a tree");
        }
      }
    }
    std::string root = spec.root;
    if (!root.empty()) {
      if (!spec.nodes.count(root)) {
        return Status::InvalidArgument(spec.root_where + ": [stack] root " + Quoted(root) +
                                       " is not defined");
      }
      if (parent.count(root)) {
        return Status::InvalidArgument(spec.root_where + ": [stack] root " + Quoted(root) +
                                       " is the child of " + Quoted(parent[root]));
      }
    } else {
      std::vector<std::string> tops;
      for (const auto& [name, n] : spec.nodes)
        if (!parent.count(name)) tops.push_back(name);
      if (tops.size() != 1) {
        const std::string list = QuotedList(tops);
        return Status::InvalidArgument(spec.label + ": " +
                                       (tops.empty()
                                            ? std::string("every node has a parent (a cycle)")
                                            : "several nodes have no parent (" + list +
                                                  "); say which is the root with "
                                                  "[stack] root = \"...\""));
      }
      root = tops[0];
    }
    // Every node must hang under the root.
    std::set<std::string> reached;
    std::vector<std::string> todo = {root};
    while (!todo.empty()) {
      std::string n = todo.back();
      todo.pop_back();
      if (!reached.insert(n).second) continue;
      for (const auto& c : spec.nodes.at(n).children) todo.push_back(c);
    }
    for (const auto& [name, n] : spec.nodes) {
      if (!reached.count(name)) {
        return Status::InvalidArgument(n.where + ": node " + Quoted(name) +
                                       " is not part of the stack (the root " + Quoted(root) +
                                       " does not reach it)");
      }
    }
    const NodeSpec& r = spec.nodes.at(root);
    if (r.count != 1) {
      return Status::InvalidArgument(r.where + ": node " + Quoted(root) +
                                     ": the root cannot have count > 1");
    }
    ASSIGN_OR_RETURN(auto nodes, BuildNode(spec, r, outer, true, overrides, depth));
    return nodes[0];
  }

 private:
  Result<std::vector<Node*>> BuildNode(const FileSpec& spec, const NodeSpec& n,
                                       const std::string& outer, bool is_file_root,
                                       const RawMap* overrides, int depth) {
    std::vector<Node*> out;
    std::string base = outer.empty() ? n.name : is_file_root ? outer : outer + "/" + n.name;
    for (int copy = 0; copy < n.count; ++copy) {
      std::string name = n.count > 1 ? base + "." + std::to_string(copy) : base;
      if (!n.use.empty()) {
        if (depth >= kMaxUseDepth) {
          return Status::InvalidArgument(n.where + ": node " + Quoted(n.name) +
                                         ": 'use' nests too deeply (a cycle?)");
        }
        auto src = ReadSource(n.use, spec.dir, options_.env);
        if (!src.ok()) return src.status().WithContext(n.where + ": node " + Quoted(n.name));
        auto sub = ParseFile(src->text, src->label, src->dir, src->name);
        if (!sub.ok()) return sub.status().WithContext(n.where + ": in " + Quoted(n.use));
        RawMap keys = n.keys;  // this node's keys, then any from further out
        if (overrides) {
          for (const auto& [key, v] : *overrides) keys[key] = v;
        }
        auto root = BuildFile(*sub, name, &keys, depth + 1);
        if (!root.ok()) return root.status();
        out.push_back(*root);
        continue;
      }
      if (++nodes_started_ > kMaxNodes) {
        return Status::InvalidArgument(n.where + ": node " + Quoted(n.name) +
                                       ": the stack has more than " + std::to_string(kMaxNodes) +
                                       " nodes (counts multiply through children and 'use')");
      }
      // Children first.
      std::vector<Node*> kids;
      for (const auto& c : n.children) {
        ASSIGN_OR_RETURN(auto built,
                         BuildNode(spec, spec.nodes.at(c), outer, false, nullptr, depth));
        kids.insert(kids.end(), built.begin(), built.end());
      }
      const NodeType* type = FindNodeType(n.type);
      if (!type) {
        std::string known;
        for (const auto& t : NodeTypes())
          known += (known.empty() ? "" : ", ") + std::string(t.name);
        return Status::InvalidArgument(n.where + ": node " + Quoted(n.name) + ": unknown type " +
                                       Quoted(n.type) + " (known types: " + known + ")");
      }
      int k = static_cast<int>(kids.size());
      if (k < type->min_children || (type->max_children >= 0 && k > type->max_children)) {
        std::string want =
            type->min_children == type->max_children ? std::to_string(type->min_children)
            : type->max_children < 0
                ? "at least " + std::to_string(type->min_children)
                : std::to_string(type->min_children) + " to " + std::to_string(type->max_children);
        return Status::InvalidArgument((n.children_where.empty() ? n.where : n.children_where) +
                                       ": node " + Quoted(n.name) + " of type " + Quoted(n.type) +
                                       " needs " + want + " children, has " + std::to_string(k));
      }
      RawMap keys = n.keys;
      if (overrides) {
        for (const auto& [key, v] : *overrides) keys[key] = v;
      }
      Params params(name, n.where, keys);
      if (stack_->Find(name)) {
        return Status::InvalidArgument(n.where + ": node " + Quoted(n.name) + " would be named " +
                                       Quoted(name) + ", which another node already has");
      }
      BuildContext ctx{engine_, options_.seed, options_.data_mode, name, kids, {}};
      auto made = type->make(params, ctx);
      if (!made.ok()) return made.status();
      for (auto& part : ctx.parts) {
        if (stack_->Find(part->name())) {
          return Status::InvalidArgument(n.where + ": node " + Quoted(n.name) + " builds " +
                                         Quoted(part->name()) + ", which another node is named");
        }
        stack_->Adopt(std::move(part));
      }
      Node* node = &stack_->Adopt(std::move(made).value());
      Describe(*node, n.type, kids, params);
      out.push_back(node);
    }
    return out;
  }

  void Describe(const Node& node, const std::string& type, const std::vector<Node*>& kids,
                const Params& params) {
    resolved_ += "\n[node.\"" + node.name() + "\"]\n";
    resolved_ += "type = \"" + type + "\"\n";
    if (!kids.empty()) {
      resolved_ += "children = [";
      for (size_t i = 0; i < kids.size(); ++i)
        resolved_ += (i ? ", \"" : "\"") + kids[i]->name() + "\"";
      resolved_ += "]\n";
    }
    for (const auto& u : params.used()) {
      if (u.comment) {
        resolved_ += "# " + u.key + ": " + u.value + " (" + u.where + ")\n";
        continue;
      }
      std::string line = u.key + " = " + u.value;
      if (line.size() < 40) line.resize(40, ' ');
      resolved_ += line + "  # " + u.where + BytesNote(u) + "\n";
    }
  }

 public:
  Stack* stack_ = nullptr;
  std::string resolved_;

 private:
  Engine& engine_;
  const BuildOptions& options_;
  int nodes_started_ = 0;
};

// [stack] exports as node names: a node with count = N stands for its N
// copies ("disk" -> "disk.0" ... "disk.3").
Result<std::vector<std::string>> ResolveExports(const FileSpec& spec, const Stack& stack) {
  std::vector<std::string> out;
  for (const std::string& e : spec.exports) {
    auto it = spec.nodes.find(e);
    std::vector<std::string> names;
    if (it != spec.nodes.end() && it->second.count > 1) {
      for (int i = 0; i < it->second.count; ++i) names.push_back(e + "." + std::to_string(i));
    } else {
      names.push_back(e);
    }
    for (const std::string& n : names) {
      if (stack.Find(n) == nullptr) {
        return Status::InvalidArgument(spec.exports_where + ": [stack] exports: no node " +
                                       Quoted(n) + " in the stack");
      }
      if (std::find(out.begin(), out.end(), n) != out.end()) {
        return Status::InvalidArgument(spec.exports_where + ": [stack] exports: " + Quoted(n) +
                                       " is listed twice");
      }
      out.push_back(n);
    }
  }
  return out;
}

// The [fs] table's keys (the simulated host's file system, storlab sim).
void FsKeys(Params& p, double* prefill) {
  p.Double({"prefill", "percent of the file system filled with aged files before the run"}, prefill,
           0, 100);
}

Result<LoadedStack> Build(const Source& src, Engine& engine, const BuildOptions& options) {
  ASSIGN_OR_RETURN(FileSpec spec, ParseFile(src.text, src.label, src.dir, src.name));
  LoadedStack out;
  out.stack = std::make_unique<Stack>(engine, spec.name, options.seed, options.data_mode);
  out.stack->description = spec.description;
  if (spec.has_host) {
    Params hp = Params::ForTable("host", spec.host_where, spec.host);
    Status st = ParseHost(hp, &out.host);
    if (!st.ok()) return st;
  }
  if (spec.has_fs) {
    Params fp = Params::ForTable("fs", spec.fs_where, spec.fs);
    FsKeys(fp, &out.fs_prefill);
    RETURN_IF_ERROR(fp.Finish());
  }
  Builder b(engine, options);
  b.stack_ = out.stack.get();
  ASSIGN_OR_RETURN(Node * root, b.BuildFile(spec, "", nullptr, 0));
  out.stack->set_root(root);
  if (spec.has_host && root->kind() == NodeKind::kVm) {
    return Status::InvalidArgument(
        spec.host_where + ": [host] describes the machine the workload runs on, which under a " +
        "vm node is the guest: set the vm node's guest_mem, vcpus and guest_dirty_* keys " +
        "(the host's page cache is a page_cache node below the vm)");
  }
  ASSIGN_OR_RETURN(out.exports, ResolveExports(spec, *out.stack));
  std::string head = "# " + spec.name + " (" + src.label +
                     "), resolved: every parameter with "
                     "where it came from\n[stack]\nname = \"" +
                     spec.name + "\"\n";
  if (!spec.description.empty()) head += "description = \"" + spec.description + "\"\n";
  head += "root = \"" + root->name() + "\"\n";
  if (!out.exports.empty()) {
    head += "exports = [";
    for (size_t i = 0; i < out.exports.size(); ++i)
      head += (i ? ", \"" : "\"") + out.exports[i] + "\"";
    head += "]  # " + spec.exports_where + "\n";
  }
  if (!spec.faults.empty()) {
    head += "faults = [\n";
    for (const auto& [text, where] : spec.faults) {
      out.faults.push_back({text, where});
      head += "  \"" + TomlEscaped(text) + "\",  # " + where + "\n";
    }
    head += "]\n";
  }
  if (spec.has_host) {
    Params hp = Params::ForTable("host", spec.host_where, spec.host);
    HostSpec ignored;
    (void)ParseHost(hp, &ignored);
    head += "\n[host]\n";
    for (const auto& u : hp.used()) {
      head += (u.comment ? "# " + u.key + ": " + u.value + " (" + u.where + ")"
                         : u.key + " = " + u.value + "  # " + u.where + BytesNote(u)) +
              "\n";
    }
  }
  if (spec.has_fs) {
    Params fp = Params::ForTable("fs", spec.fs_where, spec.fs);
    double ignored = 0;
    FsKeys(fp, &ignored);
    head += "\n[fs]\n";
    for (const auto& u : fp.used()) head += u.key + " = " + u.value + "  # " + u.where + "\n";
  }
  out.resolved = head + b.resolved_;
  return out;
}

}  // namespace

Result<LoadedStack> LoadStack(std::string_view name_or_path, Engine& engine,
                              const BuildOptions& options) {
  ASSIGN_OR_RETURN(Source src, ReadSource(name_or_path, "", options.env));
  return Build(src, engine, options);
}

Result<LoadedStack> LoadStackText(std::string_view text, std::string_view label,
                                  std::string_view dir, Engine& engine,
                                  const BuildOptions& options) {
  Source src{std::string(text), std::string(label), std::string(dir), std::string(label)};
  return Build(src, engine, options);
}

}  // namespace storlab
