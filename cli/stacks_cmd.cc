// storlab stacks: the catalog, one line per stack; `show` prints a stack
// resolved (every parameter with its source); `types` lists the models.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "sim/engine.h"
#include "sim/profile/catalog.h"
#include "sim/profile/loader.h"
#include "sim/profile/node_types.h"
#include "sim/profile/units.h"

namespace po = boost::program_options;

namespace storlab::cli {
namespace {

const char kUsage[] =
    "usage: storlab stacks                 list the built-in catalog\n"
    "       storlab stacks show NAME|FILE  validate a stack and print it resolved\n"
    "       storlab stacks types           list the node types a stack file can use\n";

int List() {
  for (const auto& e : Catalog()) {
    Engine engine;
    BuildOptions opts;
    opts.data_mode.kind = DataMode::Kind::kNone;
    auto loaded = LoadStack(e.name, engine, opts);
    if (!loaded.ok()) {
      std::printf("%-20s  (broken: %s)\n", std::string(e.name).c_str(),
                  loaded.status().ToString().c_str());
      continue;
    }
    const Stack& s = *loaded->stack;
    std::printf("%-20s %10s  %s\n", std::string(e.name).c_str(),
                FormatSize(s.root().geometry().capacity).c_str(), s.description.c_str());
  }
  return 0;
}

int Show(const std::string& what) {
  Engine engine;
  BuildOptions opts;
  opts.data_mode.kind = DataMode::Kind::kNone;
  auto loaded = LoadStack(what, engine, opts);
  if (!loaded.ok()) {
    std::fprintf(stderr, "storlab stacks show: %s\n", loaded.status().ToString().c_str());
    return 1;
  }
  std::fputs(loaded->resolved.c_str(), stdout);
  return 0;
}

int Types() {
  for (const auto& t : NodeTypes()) {
    std::printf("%-12s %s\n", std::string(t.name).c_str(), std::string(t.summary).c_str());
  }
  return 0;
}

}  // namespace

int StacksCommand(const Args& args) {
  po::options_description desc("Options");
  desc.add_options()("help,h", "show this help");
  po::options_description hidden;
  hidden.add_options()("words", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("words", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "storlab stacks: %s\n%s", e.what(), kUsage);
    return 2;
  }
  if (vm.count("help")) {
    std::cout << kUsage << "\n" << desc;
    return 0;
  }
  std::vector<std::string> words;
  if (vm.count("words")) words = vm["words"].as<std::vector<std::string>>();
  if (words.empty()) return List();
  if (words[0] == "show" && words.size() == 2) return Show(words[1]);
  if (words[0] == "types" && words.size() == 1) return Types();
  std::fprintf(stderr, "storlab stacks: unexpected arguments\n%s", kUsage);
  return 2;
}

}  // namespace storlab::cli
