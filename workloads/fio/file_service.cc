#include "workloads/fio/file_service.h"

#include <string>

#include "sim/quoted.h"
#include "workloads/fio/fio_units.h"

namespace storlab::fio {

// options.c str_fst_cb(): roundrobin, sequential and random take an I/O
// count after ':' (get_opt_postfix(), atoi()), zipf, pareto and
// normal/gauss their distribution's value and center (split_parse_distr(),
// the limits of random_distribution: rand_dist.cc).
Result<FileService> ParseFileService(std::string_view value) {
  FileService s;
  const size_t colon = value.find(':');
  const std::string_view kind = value.substr(0, colon);
  const std::string_view rest =
      colon == std::string_view::npos ? std::string_view() : value.substr(colon + 1);
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(Quoted(value) + ": " + why);
  };
  if (kind == "roundrobin" || kind == "sequential" || kind == "random") {
    s.kind = kind == "roundrobin"   ? FileService::Kind::kRoundRobin
             : kind == "sequential" ? FileService::Kind::kSequential
                                    : FileService::Kind::kRandom;
    if (colon != std::string_view::npos) {
      auto n = ParseFioInt(rest);
      if (!n.ok() || *n < 1 || *n > UINT32_MAX) {
        return bad("the I/Os per file after ':' must be a number from 1");
      }
      s.nr = static_cast<uint32_t>(*n);
    }
    return s;
  }
  if (kind == "zipf" || kind == "pareto" || kind == "normal" || kind == "gauss") {
    const std::string as = std::string(kind == "gauss" ? "normal" : kind) +
                           (colon == std::string_view::npos ? "" : ":" + std::string(rest));
    auto d = ParseRandDist(as);
    if (!d.ok()) {  // its message quotes `as`: say what was written
      const std::string msg = d.status().message();
      const std::string quoted = Quoted(as);
      return bad(msg.rfind(quoted + ": ", 0) == 0 ? msg.substr(quoted.size() + 2) : msg);
    }
    s.kind = FileService::Kind::kDist;
    s.dist = *d;
    return s;
  }
  return bad(
      "expected roundrobin[:N], sequential, random[:N], zipf[:THETA[:CENTER]], "
      "pareto[:H[:CENTER]] or normal|gauss[:DEV[:CENTER]]");
}

Status CheckFileService(std::string_view value) { return ParseFileService(value).status(); }

}  // namespace storlab::fio
