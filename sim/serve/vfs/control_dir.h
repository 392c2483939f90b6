// StorlabDir: wraps a Vfs (image or tree) and adds the folder .storlab/ to
// its root, the mount's window on the service:
//   .storlab/stats.json  the service's stats (Service::Stats, the same JSON
//                        as the NBD plugin's stats=FILE), taken when the
//                        file is opened: `cat` shows them live
//   .storlab/control     write a control command (sim/serve/control.h), one
//                        per line; the write returns when the command is
//                        done; then read the file for the answer (the last
//                        answer, or this handle's own). A bad command fails
//                        the write with EINVAL and changes nothing.
// The files are owned by the mounting user: stats.json 0444, control 0600;
// with the kernel's default_permissions (fusefs/ mounts with it) nobody else
// may write a command. Both are FOPEN_DIRECT_IO (no stale cached answers).
// Control commands run on a thread of their own, one at a time, so that a
// long flush or power cut never holds a FUSE thread.
//
// Thread-safe (vfs.h). Lock order: mu_ before nothing (never held across a
// call into the inner Vfs or the service).
#ifndef STORLAB_SIM_SERVE_VFS_CONTROL_DIR_H_
#define STORLAB_SIM_SERVE_VFS_CONTROL_DIR_H_

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "sim/serve/service.h"
#include "sim/serve/vfs/image_vfs.h"
#include "sim/serve/vfs/vfs.h"

namespace storlab {

class StorlabDir : public Vfs {
 public:
  static constexpr uint64_t kDirIno = 2, kStatsIno = 3, kControlIno = 4;
  static constexpr const char* kDirName = ".storlab";

  // REQUIRES: `service` outlives this object; `inner` uses no inode in 2-15.
  StorlabDir(Service& service, std::unique_ptr<Vfs> inner, const VfsOptions& options);
  ~StorlabDir() override;  // runs the commands queued, then stops the thread
  StorlabDir(const StorlabDir&) = delete;
  StorlabDir& operator=(const StorlabDir&) = delete;

  Vfs& inner() { return *inner_; }
  // What stats.json shows under "mount" beside the service's own stats
  // (the mount's pid, mode, caching, bdi), set once before serving.
  void SetMountInfo(nlohmann::ordered_json info) { mount_info_ = std::move(info); }

  Result<struct stat> Lookup(uint64_t parent, std::string_view name) override;
  void Forget(uint64_t ino, uint64_t n) override;
  Result<struct stat> GetAttr(uint64_t ino) override;
  Result<std::vector<DirEntry>> ReadDir(uint64_t ino, uint64_t offset, size_t most) override;
  Result<struct statvfs> StatFs(uint64_t ino) override;
  Result<struct stat> Mknod(uint64_t parent, std::string_view name, uint32_t mode,
                            const Caller& who) override;
  Result<struct stat> Mkdir(uint64_t parent, std::string_view name, uint32_t mode,
                            const Caller& who) override;
  Result<struct stat> Symlink(std::string_view target, uint64_t parent, std::string_view name,
                              const Caller& who) override;
  Result<std::string> Readlink(uint64_t ino) override;
  Status Unlink(uint64_t parent, std::string_view name) override;
  Status Rmdir(uint64_t parent, std::string_view name) override;
  Status Rename(uint64_t parent, std::string_view name, uint64_t new_parent,
                std::string_view new_name, uint32_t flags) override;
  Result<struct stat> Link(uint64_t ino, uint64_t new_parent, std::string_view new_name) override;
  void SetAttr(uint64_t ino, const SetAttrs& set, AttrReply reply) override;
  Result<OpenAnswer> Open(uint64_t ino, int flags) override;
  Result<std::pair<struct stat, OpenAnswer>> Create(uint64_t parent, std::string_view name,
                                                    uint32_t mode, int flags,
                                                    const Caller& who) override;
  void Release(uint64_t ino, uint64_t fh) override;
  Result<OpenAnswer> OpenDir(uint64_t ino) override;
  void Read(uint64_t ino, uint64_t fh, uint64_t offset, size_t size, ReadReply reply) override;
  void Write(uint64_t ino, uint64_t fh, uint64_t offset, const uint8_t* data, size_t size,
             WriteReply reply) override;
  void Fsync(uint64_t ino, uint64_t fh, bool datasync, StatusReply reply) override;
  void Fallocate(uint64_t ino, uint64_t fh, int mode, uint64_t offset, uint64_t length,
                 StatusReply reply) override;
  void SyncAll(StatusReply reply) override;

 private:
  static bool Ours(uint64_t ino) { return ino >= kDirIno && ino < ImageVfs::kFirstImage; }
  // Whether (parent, name) is .storlab or inside it: those cannot change.
  static bool Reserved(uint64_t parent, std::string_view name);
  struct stat Attr(uint64_t ino);
  std::string StatsText();
  void Loop();
  struct Job {
    std::string text;
    uint64_t fh;
    size_t size;
    WriteReply reply;
  };

  Service& service_;
  std::unique_ptr<Vfs> inner_;
  const VfsOptions options_;
  struct timespec mounted_ = {};
  nlohmann::ordered_json mount_info_;

  std::mutex mu_;                         // guards what follows
  std::map<uint64_t, std::string> open_;  // fh -> the text a handle reads
  uint64_t next_fh_ = 1;
  std::string last_answer_;
  std::deque<Job> jobs_;
  bool stop_ = false;
  std::condition_variable cv_;
  std::thread worker_;  // last: starts after everything above exists
};

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_VFS_CONTROL_DIR_H_
