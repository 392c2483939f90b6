// Reading and parsing stack files (see stack_file.h): TOML text to plain
// specs, with every error naming the file, the line and the key.
#include "sim/profile/stack_file.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <toml.hpp>

#include "sim/profile/catalog.h"

namespace storlab::stack_file {
namespace {

// std::map tables: keys iterate in a fixed (sorted) order, so building and
// printing a stack never depends on hashing.
using TomlValue = toml::basic_value<toml::discard_comments, std::map, std::vector>;

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

}  // namespace

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
        } else if (k == "exports") {
          if (!v.is_array())
            return Status::InvalidArgument(Where(label, v) +
                                           ": [stack] key 'exports': expected a list of node "
                                           "names");
          for (const auto& e : v.as_array()) {
            if (!e.is_string() || e.as_string().str.empty())
              return Status::InvalidArgument(Where(label, e) +
                                             ": [stack] key 'exports': expected a list of node "
                                             "names");
            spec.exports.push_back(e.as_string().str);
          }
          spec.exports_where = Where(label, v);
        } else {
          return Status::InvalidArgument(Where(label, v) + ": [stack]: unknown key '" + k +
                                         "' (expected description, root, name, exports)");
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

}  // namespace storlab::stack_file
