// storlab stacks: the catalog, one line per stack; `show` prints a stack
// resolved (every parameter with its source); `types` lists the models,
// `types TYPE` the keys of one.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/probe.h"
#include "cli/sim_faults.h"
#include "sim/engine.h"
#include "sim/profile/catalog.h"
#include "sim/profile/loader.h"
#include "sim/profile/node_keys.h"
#include "sim/profile/node_types.h"
#include "sim/profile/units.h"
#include "sim/quoted.h"

namespace po = boost::program_options;

namespace storlab::cli {
namespace {

const char kUsage[] =
    "usage: storlab stacks                 list the built-in catalog\n"
    "       storlab stacks show NAME|FILE  validate a stack and print it resolved\n"
    "       storlab stacks types           list the node types a stack file can use\n"
    "       storlab stacks types TYPE      list every key of a node type: type, unit,\n"
    "                                      default, range and meaning\n"
    "       storlab stacks probe [--all] [--seconds S] [--span SIZE] NAME|FILE...\n"
    "                                      measure headline figures in virtual time\n"
    "                                      (4K random QD1/QD32, 1M sequential QD8)\n";

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
  // [stack] faults: their syntax and their nodes, as storlab sim checks them.
  auto faults = ParseStackFaults(loaded->faults);
  Status st = faults.ok() ? CheckSimFaults(*faults, *loaded->stack) : faults.status();
  if (!st.ok()) {
    std::fprintf(stderr, "storlab stacks show: %s\n", st.ToString().c_str());
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

int TypeKeys(const std::string& type) {
  auto keys = DescribeNodeType(type);
  if (!keys.ok()) {
    std::fprintf(stderr, "storlab stacks types: %s\n", keys.status().ToString().c_str());
    return 2;
  }
  const NodeType& t = *FindNodeType(type);
  std::printf("%s: %s\n", std::string(t.name).c_str(), std::string(t.summary).c_str());
  if (keys->empty()) {
    std::printf("(no keys of its own)\n");
    return 0;
  }
  std::printf(
      "Sizes: a number of bytes or \"64KiB\", \"16TB\" (KiB = 1024, KB = 1000);\n"
      "durations \"4.17ms\", \"500us\", \"2s\"; rates \"117.7MB/s\"; fractions 0.3 or "
      "\"30%%\".\n\n");
  std::fputs(FormatNodeKeys(*keys).c_str(), stdout);
  return 0;
}

}  // namespace

int StacksCommand(const Args& args) {
  po::options_description desc("Options");
  desc.add_options()("help,h", "show this help")("all", "probe: every catalog stack")(
      "seconds", po::value<double>()->default_value(2.0), "probe: simulated seconds per test")(
      "span", po::value<std::string>()->default_value("0"),
      "probe: bytes used by random I/O (e.g. 1GiB); 0 = the whole device")(
      "seed", po::value<uint64_t>()->default_value(1), "probe: the run's seed");
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
  if (words[0] == "types" && words.size() == 2) return TypeKeys(words[1]);
  if (words[0] == "probe") {
    ProbeOptions o;
    o.seconds = vm["seconds"].as<double>();
    o.seed = vm["seed"].as<uint64_t>();
    auto span = ParseSize(vm["span"].as<std::string>());
    if (!span.ok() || !(o.seconds > 0)) {
      std::fprintf(stderr, "storlab stacks probe: %s\n",
                   span.ok() ? "--seconds must be positive" : span.status().ToString().c_str());
      return 2;
    }
    // Random tests use 4 KiB blocks: a span must hold at least one.
    if (*span != 0 && *span < 4096) {
      std::fprintf(stderr,
                   "storlab stacks probe: --span %s holds no 4 KiB block of the random tests "
                   "(give at least 4k, or 0 for the whole device)\n",
                   Quoted(vm["span"].as<std::string>()).c_str());
      return 2;
    }
    o.span = *span;
    std::vector<std::string> names(words.begin() + 1, words.end());
    if (vm.count("all")) {
      for (const auto& e : Catalog()) names.emplace_back(e.name);
    }
    if (names.empty()) {
      std::fprintf(stderr, "storlab stacks probe: name a stack, or --all\n%s", kUsage);
      return 2;
    }
    return ProbeStacks(names, o);
  }
  std::fprintf(stderr, "storlab stacks: unexpected arguments\n%s", kUsage);
  return 2;
}

}  // namespace storlab::cli
