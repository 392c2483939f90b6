// opendir= (opendir.h): filesetup.c recurse_dir() over the simulated file
// system's names.
#include "workloads/fio/opendir.h"

#include <algorithm>

#include "sim/quoted.h"
#include "workloads/fio/job_spec_fixup.h"

namespace storlab::fio {

Status ResolveOpendir(JobSpec* spec, const ExtentFs& fs, std::vector<std::string>* messages) {
  const JobOptions& o = spec->opts;
  std::string dir = o.opendir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  const std::string prefix = dir == "/" ? "/" : dir + "/";
  std::vector<std::string> found;
  for (uint32_t id : fs.ids()) {
    const std::string& name = fs.file(id).name;
    const bool below = dir == "." ? !name.empty() && name[0] != '/' : name.rfind(prefix, 0) == 0;
    if (below && name.size() > prefix.size()) found.push_back(name);
  }
  if (found.empty()) {
    return Status::InvalidArgument(
        "job " + Quoted(spec->name) + ": opendir=" + Printable(o.opendir) +
        ": no file below it in the simulated file system (its files are those the host starts "
        "with: --prefill's .prefill/, a --state directory's; fio: opendir() fails with ENOENT)");
  }
  std::sort(found.begin(), found.end());
  // add_job(): the nrfiles default names only when no file was added;
  // str_opendir_cb() keeps filename='s files.
  if (o.filename.empty()) spec->files.clear();
  for (std::string& f : found) {
    if (std::find(spec->files.begin(), spec->files.end(), f) == spec->files.end())
      spec->files.push_back(std::move(f));
  }
  if (spec->first_of_section) {
    messages->push_back("fio: opendir added " + std::to_string(spec->files.size()) + " files");
  }
  SizeFiles(*spec);  // for the new count of files
  return Status();
}

}  // namespace storlab::fio
