// storlab mount / storlab umount: a stack through the kernel's FUSE
// (fusefs/mount.h), and its orderly unmount (write back, flush the model,
// say what a flush cannot promise, unmount, wait for the server to exit).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "cli/commands.h"
#include "fusefs/mount.h"

extern char** environ;

namespace po = boost::program_options;

namespace storlab::cli {
namespace {

const char kMountUsage[] =
    "usage: storlab mount --stack STACK|FILE MOUNTPOINT [options]\n"
    "\n"
    "Shows a simulated stack, in real time, through the kernel's FUSE: one image file per\n"
    "exported device (MOUNTPOINT/<export>.img, for losetup, mkfs, btrfs RAID, fio), or with\n"
    "--tree a file tree whose data is placed on the device. MOUNTPOINT/.storlab/ holds\n"
    "stats.json (live) and control (write a command: power-cut, flush, fail NAME,\n"
    "replace NAME, detach NAME, attach NAME, delay NAME DURATION for DURATION,\n"
    "media-error NAME OFFSET+LENGTH, corrupt NAME OFFSET, ignore-fua NAME, reset-stats,\n"
    "stats; then read the file for the answer).\n"
    "Unmount with `storlab umount MOUNTPOINT` (flushes the model first) or fusermount3 -u.\n"
    "\n"
    "Kernel caching decides what a benchmark measures:\n"
    "  (default)          the page cache serves repeated reads within an open; every write\n"
    "                     reaches the model: writes measure the device, reads may not\n"
    "  --direct-io        every read and write reaches the model: fio measures the device\n"
    "                     (mmap is refused on these files: the kernel's FOPEN_DIRECT_IO)\n"
    "  --kernel-cache     the page cache keeps what it read across opens: a re-read\n"
    "                     measures RAM, not the device\n"
    "  --writeback-cache  the kernel absorbs writes as an NFS client does: a buffered\n"
    "                     write measures RAM up to the bdi's dirty limit, then the device;\n"
    "                     fsync and close pay for it\n"
    "  --bdi-max-ratio N  the share (%) of the dirty limit the kernel may hold for this\n"
    "                     mount; the FUSE default is 1 % and strict, an NFS client's 100 %\n"
    "                     (root only). The mount prints the setting it runs with.\n"
    "O_DIRECT opens bypass the page cache in every mode.\n\n";

Result<int> SpawnWait(const std::vector<std::string>& argv_s) {
  std::vector<char*> argv;
  argv.reserve(argv_s.size() + 1);
  for (const auto& a : argv_s) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
  if (err != 0) return Status::NotFound(argv_s[0] + ": " + std::strerror(err));
  int ws = 0;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
}

}  // namespace

int MountCommand(const Args& args) {
  po::options_description desc("Options");
  std::vector<std::string> fuse_opts, exports;
  std::string store, compensate;
  desc.add_options()("help,h", "show this help")(
      "stack", po::value<std::string>(), "a catalog stack (`storlab stacks`) or a stack file")(
      "tree", "a file tree on the first export instead of image files")(
      "direct-io", "every request reaches the model (FOPEN_DIRECT_IO)")(
      "kernel-cache", "keep the page cache across opens (FOPEN_KEEP_CACHE)")(
      "writeback-cache", "the kernel's write-back cache in front of the model")(
      "bdi-max-ratio", po::value<int>(), "the mount's bdi max_ratio, 1-100 (root)")(
      "export", po::value<std::vector<std::string>>(&exports),
      "a node to export (repeat; default: the stack's exports, else its root)")(
      "seed", po::value<uint64_t>()->default_value(1), "the models' seed")(
      "state", po::value<std::string>(),
      "start from the stack's state saved in DIR, if any, and save it there at unmount")(
      "store", po::value<std::string>(&store)->default_value("memory"),
      "where data lives: memory, none (timing only) or file:DIR")(
      "no-oracle",
      "keep the data but do not track its durability (the oracle hashes every block "
      "written and read on the engine's thread: a benchmark of the transport leaves it out)")(
      "foreground,f", "stay in the foreground")(
      "compensate", po::value<std::string>(&compensate)->default_value("auto"),
      "deduct the transport's round trip from the model's delay: auto (measured), off, or "
      "a fixed duration such as 40us")(
      "threads", po::value<int>()->default_value(4),
      "FUSE worker threads (handlers never wait for the model: a few suffice)")(
      "option,o", po::value<std::vector<std::string>>(&fuse_opts),
      "FUSE mount options (allow_other, writeback_cache, direct_io, max_write=N, ...)");
  po::options_description hidden;
  hidden.add_options()("mountpoint", po::value<std::string>(), "");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("mountpoint", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "storlab mount: %s\n\n%s", e.what(), kMountUsage);
    return 2;
  }
  if (vm.count("help")) {
    std::cout << kMountUsage << desc << "\n";
    return 0;
  }
  if (!vm.count("stack") || !vm.count("mountpoint")) {
    std::fprintf(stderr, "storlab mount: --stack and MOUNTPOINT are required\n\n%s", kMountUsage);
    return 2;
  }
  if (vm.count("direct-io") && vm.count("kernel-cache")) {
    std::fprintf(stderr, "storlab mount: --direct-io and --kernel-cache exclude each other\n");
    return 2;
  }
  fusefs::MountOptions o;
  o.stack = vm["stack"].as<std::string>();
  o.mountpoint = vm["mountpoint"].as<std::string>();
  o.exports = exports;
  o.tree = vm.count("tree") > 0;
  if (vm.count("direct-io")) o.cache = KernelCache::kDirectIo;
  if (vm.count("kernel-cache")) o.cache = KernelCache::kKeep;
  o.writeback_cache = vm.count("writeback-cache") > 0;
  if (vm.count("bdi-max-ratio")) {
    o.bdi_max_ratio = vm["bdi-max-ratio"].as<int>();
    if (o.bdi_max_ratio < 1 || o.bdi_max_ratio > 100) {
      std::fprintf(stderr, "storlab mount: --bdi-max-ratio: expected 1 to 100\n");
      return 2;
    }
    if (geteuid() != 0) {
      std::fprintf(stderr,
                   "storlab mount: --bdi-max-ratio needs root (it writes "
                   "/sys/class/bdi/MAJ:MIN/max_ratio); run as root or leave it out\n");
      return 2;
    }
  }
  o.seed = vm["seed"].as<uint64_t>();
  if (vm.count("state")) o.state = vm["state"].as<std::string>();
  o.store = store;
  o.oracle = vm.count("no-oracle") == 0;
  o.compensate = compensate;
  o.foreground = vm.count("foreground") > 0;
  o.threads = vm["threads"].as<int>();
  if (o.threads < 1 || o.threads > 256) {
    std::fprintf(stderr, "storlab mount: --threads: expected 1 to 256\n");
    return 2;
  }
  o.fuse_options = fuse_opts;
  return fusefs::RunMount(o);
}

int UmountCommand(const Args& args) {
  if (args.size() != 1 || args[0] == "--help" || args[0] == "-h") {
    std::fprintf(args.size() == 1 ? stdout : stderr,
                 "usage: storlab umount MOUNTPOINT\n\n"
                 "Writes back what the kernel holds for the mount (syncfs), flushes every\n"
                 "export through .storlab/control, says what a flush could not make durable,\n"
                 "unmounts and waits for the server to exit.\n");
    return args.size() == 1 ? 0 : 2;
  }
  const std::string& mp = args[0];
  const std::string ctl = mp + "/.storlab/control";
  long long pid = -1;
  int rc = 0;
  {
    std::ifstream in(mp + "/.storlab/stats.json");
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.contains("mount")) {
      std::fprintf(stderr, "storlab umount: %s is not a storlab mount (no .storlab/stats.json)\n",
                   mp.c_str());
      return 1;
    }
    pid = j["mount"].value("pid", -1LL);
    for (const auto& e : j["service"]["exports"]) {
      if (e.value("volatile_cache", false) && !e.value("honors_flush", true)) {
        std::printf(
            "storlab umount: export '%s' does not honour flush: what it acknowledged "
            "may not be durable\n",
            e.value("name", "?").c_str());
      }
    }
  }
  int fd = open(mp.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    if (syncfs(fd) != 0) std::fprintf(stderr, "storlab umount: syncfs: %s\n", std::strerror(errno));
    close(fd);
  }
  {
    std::ofstream out(ctl);
    out << "flush\n";
    out.flush();
    if (!out) rc = 1;
  }
  std::string answer;
  {
    std::ifstream ans(ctl);
    answer.assign(std::istreambuf_iterator<char>(ans), std::istreambuf_iterator<char>());
  }
  std::printf("storlab umount: %s", answer.empty() ? "flush: no answer\n" : answer.c_str());
  if (rc) std::fprintf(stderr, "storlab umount: the flush failed: unflushed data may be lost\n");
  if (geteuid() == 0) {
    if (umount2(mp.c_str(), 0) != 0) {
      std::fprintf(stderr, "storlab umount: %s: %s\n", mp.c_str(), std::strerror(errno));
      return 1;
    }
  } else {
    auto r = SpawnWait({"fusermount3", "-u", mp});
    if (!r.ok() || *r != 0) {
      std::fprintf(stderr, "storlab umount: fusermount3 -u %s failed\n", mp.c_str());
      return 1;
    }
  }
  // The server answers what is left and exits.
  for (int i = 0; pid > 0 && i < 600 && kill(static_cast<pid_t>(pid), 0) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return rc;
}

}  // namespace storlab::cli
