#include "sim/store/store.h"

#include "sim/stat_table.h"
#include "sim/store/file_store.h"
#include "sim/store/null_store.h"
#include "sim/store/ram_store.h"

namespace storlab {

void Store::AppendStats(std::vector<StatValue>& out) const {
  out.push_back({"allocated_bytes", static_cast<double>(allocated_bytes()), kBytes});
}

Result<std::unique_ptr<Store>> MakeStore(const DataMode& mode, const std::string& name,
                                         uint64_t capacity) {
  switch (mode.kind) {
    case DataMode::Kind::kNone:
      return std::unique_ptr<Store>(new NullStore());
    case DataMode::Kind::kRam:
      return std::unique_ptr<Store>(
          new RamStore(mode.huge_pages, mode.stream_writes, mode.prefetch));
    case DataMode::Kind::kFile: {
      // Nodes of a `use`d stack are named "outer/inner": keep one directory.
      std::string file = name;
      for (auto& c : file)
        if (c == '/') c = '+';
      auto fs = FileStore::Open(mode.directory + "/" + file + ".img", capacity, mode.env);
      if (!fs.ok()) return fs.status();
      return std::unique_ptr<Store>(std::move(fs).value());
    }
  }
  return Status::Internal("unknown data mode");
}

}  // namespace storlab
