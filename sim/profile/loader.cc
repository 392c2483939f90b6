#include "sim/profile/loader.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <toml.hpp>
#include <vector>

#include "sim/profile/catalog.h"
#include "sim/profile/node_types.h"
#include "sim/profile/params.h"

namespace storlab {
namespace {

// std::map tables: keys iterate in a fixed (sorted) order, so building and
// printing a stack never depends on hashing.
using TomlValue = toml::basic_value<toml::discard_comments, std::map, std::vector>;

constexpr int kMaxUseDepth = 16;
constexpr int kMaxCount = 1024;
// Nodes in one stack, counting every copy (counts add up across children
// and multiply through 'use'; each node keeps ~80 KB of statistics, so a few
// lines must not be able to ask for millions). Room for a full count.
constexpr int kMaxNodes = 2 * kMaxCount;

using RawMap = std::map<std::string, Params::Raw>;

struct NodeSpec {
  std::string name;
  std::string where;  // the table's file:line
  std::string type, use;
  std::vector<std::string> children;
  std::string children_where;
  int count = 1;
  RawMap keys;  // the model's keys (overrides, for a `use` node)
};

struct FileSpec {
  std::string label;  // for messages: "nas.toml", "catalog:hdd-7200"
  std::string name;   // stack name
  std::string dir;
  std::string description;
  std::string root;
  std::string root_where;
  std::map<std::string, NodeSpec> nodes;
  bool has_host = false;
  RawMap host;
  std::string host_where;
};

std::string Where(const std::string& label, const TomlValue& v) {
  auto loc = v.location();
  if (loc.line() == 0) return label;
  return label + ":" + std::to_string(loc.line());
}

std::string DoubleText(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

Result<Params::Raw> ToRaw(const std::string& label, const std::string& key, const TomlValue& v) {
  Params::Raw r;
  r.where = Where(label, v);
  using K = Params::Raw::Kind;
  if (v.is_string()) {
    r.kind = K::kString;
    r.text = v.as_string().str;
  } else if (v.is_integer()) {
    r.kind = K::kInteger;
    r.text = std::to_string(v.as_integer());
  } else if (v.is_floating()) {
    r.kind = K::kFloat;
    r.text = DoubleText(v.as_floating());
  } else if (v.is_boolean()) {
    r.kind = K::kBool;
    r.text = v.as_boolean() ? "true" : "false";
  } else if (v.is_array()) {
    r.kind = K::kArray;
    r.text = "[...]";
    for (const auto& e : v.as_array()) {
      if (!e.is_string()) {
        return Status::InvalidArgument(r.where + ": key '" + key + "': expected a list of strings");
      }
      r.items.push_back(e.as_string().str);
    }
  } else {
    r.kind = K::kOther;
    r.text = "a table";
  }
  return r;
}

// The offset of the first byte that is not part of a valid UTF-8 sequence
// (overlong forms, surrogates and code points past U+10FFFF are invalid), or
// npos.
size_t InvalidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n;
    unsigned lo = 0x80, hi = 0xBF;  // the valid range of the second byte
    if (c < 0x80) {
      n = 0;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
    } else {
      return i;
    }
    if (s.size() - i <= static_cast<size_t>(n)) return i;
    for (int k = 1; k <= n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return i;
    }
    i += static_cast<size_t>(n) + 1;
  }
  return std::string_view::npos;
}

Result<FileSpec> ParseFile(std::string_view text, const std::string& label, const std::string& dir,
                           const std::string& name) {
  // TOML files are UTF-8 (the TOML spec), and toml11 3.7 reads out of bounds
  // on invalid UTF-8 in literal strings (toml11 issue #199, fixed in 3.8): so
  // reject it here, with the line.
  if (size_t bad = InvalidUtf8(text); bad != std::string_view::npos) {
    size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + bad, '\n'));
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[bad]));
    return Status::InvalidArgument(label + ":" + std::to_string(line) + ": not valid UTF-8 (byte " +
                                   byte + "); a TOML file must be UTF-8");
  }
  TomlValue root;
  try {
    std::istringstream in{std::string(text)};
    root = toml::parse<toml::discard_comments, std::map, std::vector>(in, label);
  } catch (const std::exception& e) {
    std::string msg = e.what();
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    return Status::InvalidArgument(label + ": malformed TOML:\n" + msg);
  }
  FileSpec spec;
  spec.label = label;
  spec.dir = dir;
  spec.name = name;
  for (const auto& [key, val] : root.as_table()) {
    if (key == "stack") {
      if (!val.is_table())
        return Status::InvalidArgument(Where(label, val) + ": 'stack' must be a table");
      for (const auto& [k, v] : val.as_table()) {
        if ((k == "description" || k == "root" || k == "name") && v.is_string()) {
          if (k == "description") spec.description = v.as_string().str;
          if (k == "root") {
            spec.root = v.as_string().str;
            spec.root_where = Where(label, v);
          }
          if (k == "name") spec.name = v.as_string().str;
        } else if (k == "description" || k == "root" || k == "name") {
          return Status::InvalidArgument(Where(label, v) + ": [stack] key '" + k +
                                         "': expected a string");
        } else {
          return Status::InvalidArgument(Where(label, v) + ": [stack]: unknown key '" + k +
                                         "' (expected description, root, name)");
        }
      }
    } else if (key == "host") {
      if (!val.is_table())
        return Status::InvalidArgument(Where(label, val) + ": 'host' must be a table");
      spec.has_host = true;
      spec.host_where = Where(label, val);
      for (const auto& [k, v] : val.as_table()) {
        ASSIGN_OR_RETURN(spec.host[k], ToRaw(label, k, v));
      }
    } else if (key == "node") {
      if (!val.is_table()) {
        return Status::InvalidArgument(Where(label, val) +
                                       ": 'node' must be tables such as [node.disk]");
      }
      for (const auto& [nname, nval] : val.as_table()) {
        if (!nval.is_table()) {
          return Status::InvalidArgument(Where(label, nval) + ": node '" + nname +
                                         "' must be a table ([node." + nname + "])");
        }
        // Names become file names (sparse-file stores) and appear in stats:
        // letters, digits and - _ . / only ('.' and '/' are what `count`
        // and `use` add, so resolved stacks load back).
        if (nname.empty() ||
            nname.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                    "0123456789-_./") != std::string::npos ||
            nname.front() == '.' || nname.front() == '/') {
          return Status::InvalidArgument(Where(label, nval) + ": node name '" + nname +
                                         "': use letters, digits, '-', '_', '.' and '/' (not "
                                         "first)");
        }
        NodeSpec n;
        n.name = nname;
        n.where = Where(label, nval);
        for (const auto& [k, v] : nval.as_table()) {
          std::string at = Where(label, v) + ": node '" + nname + "', key '" + k + "'";
          if (k == "type" || k == "use") {
            if (!v.is_string()) return Status::InvalidArgument(at + ": expected a string");
            (k == "type" ? n.type : n.use) = v.as_string().str;
          } else if (k == "child" || k == "children") {
            if (!n.children_where.empty()) {
              return Status::InvalidArgument(at + ": give either 'child' or 'children', once");
            }
            n.children_where = Where(label, v);
            if (v.is_string()) {
              n.children.push_back(v.as_string().str);
            } else if (v.is_array()) {
              for (const auto& c : v.as_array()) {
                if (!c.is_string()) return Status::InvalidArgument(at + ": expected node names");
                n.children.push_back(c.as_string().str);
              }
            } else {
              return Status::InvalidArgument(at + ": expected a node name or a list of them");
            }
          } else if (k == "count") {
            if (!v.is_integer() || v.as_integer() < 1 || v.as_integer() > kMaxCount) {
              return Status::InvalidArgument(at + ": expected an integer in [1, " +
                                             std::to_string(kMaxCount) + "]");
            }
            n.count = static_cast<int>(v.as_integer());
          } else {
            ASSIGN_OR_RETURN(n.keys[k], ToRaw(label, k, v));
          }
        }
        if (n.type.empty() == n.use.empty()) {
          return Status::InvalidArgument(n.where + ": node '" + nname +
                                         "': give exactly one of 'type' (a model) or 'use' (a "
                                         "catalog stack or file)");
        }
        if (!n.use.empty() && !n.children.empty()) {
          return Status::InvalidArgument(n.children_where + ": node '" + nname +
                                         "': a 'use' node brings its own children");
        }
        spec.nodes.emplace(nname, std::move(n));
      }
    } else {
      return Status::InvalidArgument(Where(label, val) + ": unknown top-level key '" + key +
                                     "' (expected [stack], [host] and [node.NAME] tables)");
    }
  }
  if (spec.nodes.empty()) {
    return Status::InvalidArgument(label + ": no nodes: define at least one [node.NAME] table");
  }
  return spec;
}

struct Source {
  std::string text;
  std::string label;
  std::string dir;
  std::string name;
};

Result<Source> ReadSource(std::string_view name_or_path, const std::string& rel_dir) {
  if (const CatalogEntry* e = FindCatalogEntry(name_or_path)) {
    return Source{std::string(e->text), "catalog:" + std::string(e->name) + ".toml", "",
                  std::string(e->name)};
  }
  std::string path(name_or_path);
  if (!rel_dir.empty() && !path.empty() && path[0] != '/') path = rel_dir + "/" + path;
  // Only regular files: `use = "/dev/zero"` would read forever.
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    return Status::InvalidArgument("'" + std::string(name_or_path) + "' is not a regular file");
  }
  std::ifstream in(path);
  if (!in) {
    return Status::NotFound("'" + std::string(name_or_path) +
                            "' is neither a catalog stack (see `storlab stacks`) nor a readable "
                            "file");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string stem = base.size() > 5 && base.substr(base.size() - 5) == ".toml"
                         ? base.substr(0, base.size() - 5)
                         : base;
  return Source{ss.str(), path, dir, stem};
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
          return Status::InvalidArgument(n.children_where + ": node '" + name + "': child '" + c +
                                         "' is not defined (no [node." + c + "] table)");
        }
        if (c == name) {
          return Status::InvalidArgument(n.children_where + ": node '" + name +
                                         "' lists itself as a child");
        }
        auto [it, fresh] = parent.emplace(c, name);
        if (!fresh) {
          return Status::InvalidArgument(n.children_where + ": node '" + c +
                                         "' already has a parent ('" + it->second +
                                         "'); a stack is a tree");
        }
      }
    }
    std::string root = spec.root;
    if (!root.empty()) {
      if (!spec.nodes.count(root)) {
        return Status::InvalidArgument(spec.root_where + ": [stack] root '" + root +
                                       "' is not defined");
      }
      if (parent.count(root)) {
        return Status::InvalidArgument(spec.root_where + ": [stack] root '" + root +
                                       "' is the child of '" + parent[root] + "'");
      }
    } else {
      std::vector<std::string> tops;
      for (const auto& [name, n] : spec.nodes)
        if (!parent.count(name)) tops.push_back(name);
      if (tops.size() != 1) {
        std::string list;
        for (auto& t : tops) list += (list.empty() ? "'" : ", '") + t + "'";
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
        return Status::InvalidArgument(n.where + ": node '" + name +
                                       "' is not part of the stack (the root '" + root +
                                       "' does not reach it)");
      }
    }
    const NodeSpec& r = spec.nodes.at(root);
    if (r.count != 1) {
      return Status::InvalidArgument(r.where + ": node '" + root +
                                     "': the root cannot have count > 1");
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
          return Status::InvalidArgument(n.where + ": node '" + n.name +
                                         "': 'use' nests too deeply (a cycle?)");
        }
        auto src = ReadSource(n.use, spec.dir);
        if (!src.ok()) return src.status().WithContext(n.where + ": node '" + n.name + "'");
        auto sub = ParseFile(src->text, src->label, src->dir, src->name);
        if (!sub.ok()) return sub.status().WithContext(n.where + ": in '" + n.use + "'");
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
        return Status::InvalidArgument(n.where + ": node '" + n.name +
                                       "': the stack has more than " + std::to_string(kMaxNodes) +
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
        return Status::InvalidArgument(n.where + ": node '" + n.name + "': unknown type '" +
                                       n.type + "' (known types: " + known + ")");
      }
      int k = static_cast<int>(kids.size());
      if (k < type->min_children || (type->max_children >= 0 && k > type->max_children)) {
        std::string want =
            type->min_children == type->max_children ? std::to_string(type->min_children)
            : type->max_children < 0
                ? "at least " + std::to_string(type->min_children)
                : std::to_string(type->min_children) + " to " + std::to_string(type->max_children);
        return Status::InvalidArgument((n.children_where.empty() ? n.where : n.children_where) +
                                       ": node '" + n.name + "' of type '" + n.type + "' needs " +
                                       want + " children, has " + std::to_string(k));
      }
      RawMap keys = n.keys;
      if (overrides) {
        for (const auto& [key, v] : *overrides) keys[key] = v;
      }
      Params params(name, n.where, keys);
      if (stack_->Find(name)) {
        return Status::InvalidArgument(n.where + ": node '" + n.name + "' would be named '" + name +
                                       "', which another node already has");
      }
      BuildContext ctx{engine_, options_.seed, options_.data_mode, name, kids};
      auto made = type->make(params, ctx);
      if (!made.ok()) return made.status();
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
      std::string line = u.key + " = " + u.value;
      if (line.size() < 40) line.resize(40, ' ');
      resolved_ += line + "  # " + u.where + "\n";
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

Result<LoadedStack> Build(const Source& src, Engine& engine, const BuildOptions& options) {
  ASSIGN_OR_RETURN(FileSpec spec, ParseFile(src.text, src.label, src.dir, src.name));
  LoadedStack out;
  out.stack = std::make_unique<Stack>(engine, spec.name, options.seed, options.data_mode);
  out.stack->description = spec.description;
  if (spec.has_host) {
    Params hp("host", spec.host_where, spec.host);
    Status st = ParseHost(hp, &out.host);
    if (!st.ok()) return st;
  }
  Builder b(engine, options);
  b.stack_ = out.stack.get();
  ASSIGN_OR_RETURN(Node * root, b.BuildFile(spec, "", nullptr, 0));
  out.stack->set_root(root);
  std::string head = "# " + spec.name + " (" + src.label +
                     "), resolved: every parameter with "
                     "where it came from\n[stack]\nname = \"" +
                     spec.name + "\"\n";
  if (!spec.description.empty()) head += "description = \"" + spec.description + "\"\n";
  head += "root = \"" + root->name() + "\"\n";
  if (spec.has_host) {
    Params hp("host", spec.host_where, spec.host);
    HostSpec ignored;
    (void)ParseHost(hp, &ignored);
    head += "\n[host]\n";
    for (const auto& u : hp.used()) head += u.key + " = " + u.value + "  # " + u.where + "\n";
  }
  out.resolved = head + b.resolved_;
  return out;
}

}  // namespace

Result<LoadedStack> LoadStack(std::string_view name_or_path, Engine& engine,
                              const BuildOptions& options) {
  ASSIGN_OR_RETURN(Source src, ReadSource(name_or_path, ""));
  return Build(src, engine, options);
}

Result<LoadedStack> LoadStackText(std::string_view text, std::string_view label,
                                  std::string_view dir, Engine& engine,
                                  const BuildOptions& options) {
  Source src{std::string(text), std::string(label), std::string(dir), std::string(label)};
  return Build(src, engine, options);
}

}  // namespace storlab
