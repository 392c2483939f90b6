#include "cli/sim_sections.h"

#include <map>
#include <utility>

#include "sim/quoted.h"
#include "workloads/fio/options.h"
#include "workloads/fio/profiles.h"
#include "workloads/host/sim_host.h"

namespace storlab::cli {
namespace {

// The option's name as the table knows it ("timeout" is "runtime").
std::string Canonical(const std::string& key) {
  const fio::OptionDef* d = fio::FindOption(key);
  return d ? std::string(d->name) : key;
}

// "key=value" or "key", with the user's text escaped.
std::string Setting(const fio::RawEntry& e) {
  std::string s = Printable(e.key);
  if (e.has_value) {
    s += '=';
    s += Printable(e.value);
  }
  return s;
}

}  // namespace

Result<std::vector<fio::RawSection>> ReadSections(const SimArgs& a,
                                                  std::vector<std::string>* notes) {
  ASSIGN_OR_RETURN(auto cmd, fio::ParseCommandLine(a.fio_args));
  std::vector<fio::RawSection> sections = {cmd.front()};
  std::map<std::string, const fio::RawEntry*> given;
  for (const auto& e : cmd.front().entries) given[Canonical(e.key)] = &e;
  for (const auto& f : a.job_files) {
    ASSIGN_OR_RETURN(auto parsed, fio::ParseJobFile(f, fio::ProcessEnv()));
    for (auto& s : parsed) {
      for (const auto& e : s.entries) {
        auto it = given.find(Canonical(e.key));
        if (it == given.end() || !it->second) continue;
        notes->push_back("storlab sim: note: --" + Setting(*it->second) + " is overridden by " +
                         e.where + " (" + Setting(e) +
                         "): job files come after the command line's global options, as in fio");
        it->second = nullptr;  // once per option
      }
      sections.push_back(std::move(s));
    }
  }
  for (size_t i = 1; i < cmd.size(); ++i) sections.push_back(cmd[i]);
  if (!a.profile.empty()) {
    // backend.c fio_backend() -> load_profile(): after every other job; the
    // profile's $mb_memory is the simulated host's.
    ASSIGN_OR_RETURN(auto host, SimHost::Create(a.host));
    ASSIGN_OR_RETURN(auto prof, fio::ProfileSections(a.profile, host->host().mem_bytes));
    for (auto& s : prof) sections.push_back(std::move(s));
  }
  return sections;
}

}  // namespace storlab::cli
