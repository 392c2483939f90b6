// The built-in catalog: stack files compiled into the binary.
//
// The texts are sim/profile/catalog/*.toml, embedded at build time, so
// `storlab` needs no installed data files. Thread-safe (read-only).
#ifndef STORLAB_SIM_PROFILE_CATALOG_H_
#define STORLAB_SIM_PROFILE_CATALOG_H_

#include <string_view>
#include <vector>

namespace storlab {

struct CatalogEntry {
  std::string_view name;  // file name without ".toml"
  std::string_view text;
};

// Sorted by name.
const std::vector<CatalogEntry>& Catalog();
const CatalogEntry* FindCatalogEntry(std::string_view name);

}  // namespace storlab

#endif  // STORLAB_SIM_PROFILE_CATALOG_H_
