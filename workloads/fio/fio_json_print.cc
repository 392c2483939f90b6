#include "workloads/fio/fio_json_print.h"

#include <cstdio>

namespace storlab::fio {
namespace {

void Indent(int level, std::string* out) { out->append(static_cast<size_t>(level) * 2, ' '); }

void Value(const nlohmann::ordered_json& v, int level, std::string* out);

bool FlatArray(const nlohmann::ordered_json& a) {
  if (a.empty()) return false;
  for (const auto& x : a) {
    if (!x.is_number() && !(x.is_array() && FlatArray(x))) return false;
  }
  return true;
}

void Value(const nlohmann::ordered_json& v, int level, std::string* out) {
  char buf[64];
  switch (v.type()) {
    case nlohmann::ordered_json::value_t::object: {
      out->append("{\n");
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out->append(",\n");
        first = false;
        Indent(level + 1, out);
        out->append(nlohmann::ordered_json(it.key()).dump());
        out->append(" : ");
        Value(it.value(), level + 1, out);
      }
      out->append("\n");
      Indent(level, out);
      out->append("}");
      break;
    }
    case nlohmann::ordered_json::value_t::array: {
      if (FlatArray(v)) {
        out->append("[");
        bool first = true;
        for (const auto& x : v) {
          if (!first) out->append(", ");
          first = false;
          Value(x, level, out);
        }
        out->append("]");
        break;
      }
      out->append("[\n");
      bool first = true;
      for (const auto& x : v) {
        if (!first) out->append(",\n");
        first = false;
        Indent(level + 1, out);
        Value(x, level + 1, out);
      }
      out->append("\n");
      Indent(level, out);
      out->append("]");
      break;
    }
    case nlohmann::ordered_json::value_t::number_float:
      std::snprintf(buf, sizeof(buf), "%f", v.get<double>());
      out->append(buf);
      break;
    default:
      out->append(v.dump());
      break;
  }
}

}  // namespace

std::string FioJsonDump(const nlohmann::ordered_json& j) {
  std::string out;
  Value(j, 0, &out);
  out.append("\n");
  return out;
}

}  // namespace storlab::fio
