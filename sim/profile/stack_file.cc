// Reading and parsing stack files (see stack_file.h): TOML text to plain
// specs, with every error naming the file, the line and the key.
#include "sim/profile/stack_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>

#include "sim/edit_distance.h"
#include "sim/env.h"
#include "sim/profile/catalog.h"
#include "sim/profile/toml_read.h"
#include "sim/quoted.h"

namespace storlab::stack_file {
namespace {

std::string DoubleText(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

Params::Raw ToRaw(const Locator& where, const TomlValue& v) {
  Params::Raw r;
  r.where = where(v);
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
    // Checked by the getter that reads it (an unknown key is unknown,
    // whatever its value).
    r.kind = K::kArray;
    r.text = "[...]";
    for (const auto& e : v.as_array()) {
      if (!e.is_string()) {
        r.kind = K::kOther;
        r.text = "a list that is not all strings";
        r.items.clear();
        break;
      }
      r.items.push_back(e.as_string().str);
    }
  } else {
    r.kind = K::kOther;
    r.text = "a table";
  }
  return r;
}

}  // namespace

Result<FileSpec> ParseFile(std::string_view text, const std::string& label, const std::string& dir,
                           const std::string& name) {
  ASSIGN_OR_RETURN(TomlValue root, ParseToml(text, label));
  const Locator where(label, text);
  const auto& top = root.as_table();
  if (!top.empty() && !top.count("stack") && !top.count("host") && !top.count("node")) {
    // Valid TOML, but none of it is a stack: name none of its keys, unless
    // one is a near miss of ours ([nodes.disk]).
    for (const auto& [key, val] : top) {
      for (const char* ours : {"stack", "host", "node"}) {
        if (EditDistance(key, ours) <= 2 && key.size() > 2) {
          return Status::InvalidArgument(where(val) + ": unknown top-level key " + Quoted(key) +
                                         " (did you mean [" + ours + "]?)");
        }
      }
    }
    return Status::InvalidArgument(label +
                                   ": not a TOML stack file (no [stack], [host] or [node.NAME] "
                                   "table)");
  }
  FileSpec spec;
  spec.label = label;
  spec.dir = dir;
  spec.name = name;
  for (const auto& [key, val] : root.as_table()) {
    if (key == "stack") {
      if (!val.is_table()) return Status::InvalidArgument(where(val) + ": 'stack' must be a table");
      for (const auto& [k, v] : val.as_table()) {
        if ((k == "description" || k == "root" || k == "name") && v.is_string()) {
          if (k == "description") spec.description = v.as_string().str;
          if (k == "root") {
            spec.root = v.as_string().str;
            spec.root_where = where(v);
          }
          if (k == "name") spec.name = v.as_string().str;
        } else if (k == "description" || k == "root" || k == "name") {
          return Status::InvalidArgument(where(v) + ": [stack] key " + Quoted(k) +
                                         ": expected a string");
        } else if (k == "exports") {
          if (!v.is_array())
            return Status::InvalidArgument(where(v) +
                                           ": [stack] key 'exports': expected a list of node "
                                           "names");
          for (const auto& e : v.as_array()) {
            if (!e.is_string() || e.as_string().str.empty())
              return Status::InvalidArgument(where(e) +
                                             ": [stack] key 'exports': expected a list of node "
                                             "names");
            spec.exports.push_back(e.as_string().str);
          }
          spec.exports_where = where(v);
        } else if (k == "faults") {
          if (!v.is_array())
            return Status::InvalidArgument(where(v) +
                                           ": [stack] key 'faults': expected a list of "
                                           "\"TIME: COMMAND\" strings");
          for (const auto& e : v.as_array()) {
            if (!e.is_string() || e.as_string().str.empty())
              return Status::InvalidArgument(where(e) +
                                             ": [stack] key 'faults': expected a list of "
                                             "\"TIME: COMMAND\" strings");
            spec.faults.emplace_back(e.as_string().str, where(e));
          }
        } else {
          return Status::InvalidArgument(where(v) + ": [stack]: unknown key " + Quoted(k) +
                                         " (expected description, root, name, exports, faults)");
        }
      }
    } else if (key == "host") {
      if (!val.is_table()) return Status::InvalidArgument(where(val) + ": 'host' must be a table");
      spec.has_host = true;
      spec.host_where = where(val);
      for (const auto& [k, v] : val.as_table()) {
        spec.host[k] = ToRaw(where, v);
      }
    } else if (key == "fs") {
      if (!val.is_table()) return Status::InvalidArgument(where(val) + ": 'fs' must be a table");
      spec.has_fs = true;
      spec.fs_where = where(val);
      for (const auto& [k, v] : val.as_table()) {
        spec.fs[k] = ToRaw(where, v);
      }
    } else if (key == "node") {
      if (!val.is_table()) {
        return Status::InvalidArgument(where(val) + ": 'node' must be tables such as [node.disk]");
      }
      for (const auto& [nname, nval] : val.as_table()) {
        if (!nval.is_table()) {
          return Status::InvalidArgument(where(nval) + ": node " + Quoted(nname) +
                                         " must be a table ([node.NAME])");
        }
        // Names become file names (sparse-file stores) and appear in stats:
        // letters, digits and - _ . / only ('.' and '/' are what `count`
        // and `use` add, so resolved stacks load back).
        if (nname.empty() ||
            nname.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                    "0123456789-_./") != std::string::npos ||
            nname.front() == '.' || nname.front() == '/') {
          return Status::InvalidArgument(where(nval) + ": node name " + Quoted(nname) +
                                         ": use letters, digits, '-', '_', '.' and '/' (not "
                                         "first)");
        }
        // They also become file names and go into every message about
        // the node: keep them short.
        if (nname.size() > kMaxNodeName) {
          return Status::InvalidArgument(where(nval) + ": node name " + Quoted(nname) +
                                         ": longer than " + std::to_string(kMaxNodeName) +
                                         " characters");
        }
        NodeSpec n;
        n.name = nname;
        n.where = where(nval);
        for (const auto& [k, v] : nval.as_table()) {
          std::string at = where(v) + ": node " + Quoted(nname) + ", key " + Quoted(k);
          if (k == "type" || k == "use") {
            if (!v.is_string()) return Status::InvalidArgument(at + ": expected a string");
            (k == "type" ? n.type : n.use) = v.as_string().str;
          } else if (k == "child" || k == "children") {
            if (!n.children_where.empty()) {
              return Status::InvalidArgument(at + ": give either 'child' or 'children', once");
            }
            n.children_where = where(v);
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
            n.keys[k] = ToRaw(where, v);
          }
        }
        if (n.type.empty() == n.use.empty()) {
          return Status::InvalidArgument(n.where + ": node " + Quoted(nname) +
                                         ": give exactly one of 'type' (a model) or 'use' (a "
                                         "catalog stack or file)");
        }
        if (!n.use.empty() && !n.children.empty()) {
          return Status::InvalidArgument(n.children_where + ": node " + Quoted(nname) +
                                         ": a 'use' node brings its own children");
        }
        spec.nodes.emplace(nname, std::move(n));
      }
    } else {
      return Status::InvalidArgument(where(val) + ": unknown top-level key " + Quoted(key) +
                                     " (expected [stack], [host], [fs] and [node.NAME] tables)");
    }
  }
  if (spec.nodes.empty()) {
    return Status::InvalidArgument(label + ": no nodes: define at least one [node.NAME] table");
  }
  return spec;
}

Result<Source> ReadSource(std::string_view name_or_path, const std::string& rel_dir, Env* env) {
  if (!env) env = Env::Default();
  if (const CatalogEntry* e = FindCatalogEntry(name_or_path)) {
    return Source{std::string(e->text), "catalog:" + std::string(e->name) + ".toml", "",
                  std::string(e->name)};
  }
  std::string path(name_or_path);
  if (!rel_dir.empty() && !path.empty() && path[0] != '/') path = rel_dir + "/" + path;
  // Only regular files: `use = "/dev/zero"` would read forever. (A path
  // that cannot be looked at fails at the open below.)
  const auto info = env->Stat(path);
  if (info.ok() && info->exists && !info->regular) {
    return Status::InvalidArgument(Quoted(name_or_path) + " is not a regular file");
  }
  const std::string too_large = Quoted(name_or_path) + " is larger than " +
                                std::to_string(kMaxFileBytes >> 20) + " MiB: not a stack file";
  if (info.ok() && info->regular && info->size > kMaxFileBytes) {
    return Status::InvalidArgument(too_large);
  }
  auto file = env->OpenReadOnly(path);
  if (!file.ok() && file.status().code() == Status::Code::kNotFound) {
    return Status::NotFound(Quoted(name_or_path) +
                            " is neither a catalog stack (see `storlab stacks`) nor a readable "
                            "file");
  }
  if (!file.ok()) return file.status().WithContext("cannot open " + Quoted(name_or_path));
  auto text = ReadWholeFile(**file, kMaxFileBytes);
  if (!text.ok() && text.status().code() == Status::Code::kInvalidArgument) {
    return Status::InvalidArgument(too_large);  // it grew since Stat()
  }
  if (!text.ok()) return text.status().WithContext("cannot read " + Quoted(name_or_path));
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string stem = base.size() > 5 && base.substr(base.size() - 5) == ".toml"
                         ? base.substr(0, base.size() - 5)
                         : base;
  // The label goes into messages: a `use` path comes from the file.
  return Source{std::move(text).value(), Printable(path, 256), dir, stem};
}

}  // namespace storlab::stack_file
