#include "sim/serve/vfs/control_dir.h"

#include <fcntl.h>
#include <time.h>

#include <algorithm>
#include <cstring>

namespace storlab {
namespace {

Status Refused() { return Status::NotPermitted(".storlab/ is the mount's own: it cannot change"); }

// Runs each line of `text` through the service; stops at the first error.
// Returns the answers, one per line, and whether all were accepted.
std::pair<std::string, bool> RunCommands(Service& service, std::string_view text) {
  std::string out;
  size_t commands = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    // Blank lines and comments are not commands (control.h).
    auto parsed = ParseControl(line);
    if (parsed.ok() && parsed->kind == ControlCommand::Kind::kNone) continue;
    ++commands;
    std::string answer = service.Control(line);
    out += answer + "\n";
    if (answer.rfind("error:", 0) == 0) return {out, false};
  }
  if (commands == 0) return {"error: no command (" + std::string(ControlHelp()) + ")\n", false};
  return {out, true};
}

}  // namespace

StorlabDir::StorlabDir(Service& service, std::unique_ptr<Vfs> inner, const VfsOptions& options)
    : service_(service), inner_(std::move(inner)), options_(options) {
  clock_gettime(CLOCK_REALTIME, &mounted_);
  worker_ = std::thread([this] { Loop(); });
}

StorlabDir::~StorlabDir() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void StorlabDir::Loop() {
  std::unique_lock<std::mutex> l(mu_);
  for (;;) {
    cv_.wait(l, [&] { return stop_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping, nothing left
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    l.unlock();
    auto [answer, ok] = RunCommands(service_, job.text);
    l.lock();
    last_answer_ = answer;
    if (auto it = open_.find(job.fh); it != open_.end()) it->second = answer;
    l.unlock();
    if (ok) {
      job.reply(job.size);
    } else {
      job.reply(Status::InvalidArgument(answer));
    }
    l.lock();
  }
}

bool StorlabDir::Reserved(uint64_t parent, std::string_view name) {
  return (parent == kRootIno && name == kDirName) || Ours(parent);
}

std::string StorlabDir::StatsText() {
  nlohmann::ordered_json j = service_.Stats();
  if (!mount_info_.is_null()) j["mount"] = mount_info_;
  return j.dump(2) + "\n";
}

struct stat StorlabDir::Attr(uint64_t ino) {
  struct stat a = {};
  a.st_ino = ino;
  a.st_uid = options_.uid;
  a.st_gid = options_.gid;
  a.st_atim = a.st_mtim = a.st_ctim = mounted_;
  a.st_blksize = 4096;
  if (ino == kDirIno) {
    a.st_mode = S_IFDIR | 0755;
    a.st_nlink = 2;
  } else if (ino == kStatsIno) {
    a.st_mode = S_IFREG | 0444;
    a.st_nlink = 1;
    a.st_size = static_cast<off_t>(StatsText().size());
  } else {
    a.st_mode = S_IFREG | 0600;
    a.st_nlink = 1;
    std::lock_guard<std::mutex> l(mu_);
    a.st_size = static_cast<off_t>(last_answer_.size());
  }
  // Not sparse: cp (coreutils 9) takes a file with fewer blocks than its
  // size for sparse and copies it by SEEK_DATA/SEEK_HOLE, which the kernel
  // answers from this size — and the text read after open may be longer.
  a.st_blocks = (a.st_size + 511) / 512;
  return a;
}

Result<struct stat> StorlabDir::Lookup(uint64_t parent, std::string_view name) {
  if (parent == kRootIno && name == kDirName) return Attr(kDirIno);
  if (parent == kDirIno) {
    if (name == "stats.json") return Attr(kStatsIno);
    if (name == "control") return Attr(kControlIno);
    if (name == ".") return Attr(kDirIno);
    if (name == "..") return inner_->GetAttr(kRootIno);
    RETURN_IF_ERROR(CheckName(name));
    return Status::NotFound("no such file in .storlab/ (stats.json, control)");
  }
  if (Ours(parent)) return Status::NotDirectory("inode " + std::to_string(parent));
  return inner_->Lookup(parent, name);
}

void StorlabDir::Forget(uint64_t ino, uint64_t n) {
  if (!Ours(ino)) inner_->Forget(ino, n);
}

Result<struct stat> StorlabDir::GetAttr(uint64_t ino) {
  if (ino == kDirIno || ino == kStatsIno || ino == kControlIno) return Attr(ino);
  if (Ours(ino)) return Status::NotFound("no inode " + std::to_string(ino));
  return inner_->GetAttr(ino);
}

Result<std::vector<DirEntry>> StorlabDir::ReadDir(uint64_t ino, uint64_t offset, size_t most) {
  if (ino == kDirIno) {
    static const DirEntry kEntries[] = {{".", kDirIno, S_IFDIR, 1},
                                        {"..", kRootIno, S_IFDIR, 2},
                                        {"stats.json", kStatsIno, S_IFREG, 3},
                                        {"control", kControlIno, S_IFREG, 4}};
    std::vector<DirEntry> out;
    for (const auto& e : kEntries)
      if (e.next > offset && out.size() < most) out.push_back(e);
    return out;
  }
  if (Ours(ino)) return Status::NotDirectory("inode " + std::to_string(ino));
  if (ino != kRootIno) return inner_->ReadDir(ino, offset, most);
  // The root: the inner entries at twice their offsets, and .storlab right
  // after ".." at the odd offset 5 (so a reader may stop and go on anywhere).
  if (most == 0) return std::vector<DirEntry>{};
  const DirEntry ours{kDirName, kDirIno, S_IFDIR, 5};
  std::vector<DirEntry> out;
  if (offset == 4) out.push_back(ours);
  ASSIGN_OR_RETURN(auto inner, inner_->ReadDir(ino, offset / 2, most));
  for (auto& e : inner) {
    if (out.size() >= most) break;
    const uint64_t next = e.next;
    e.next = next * 2;
    out.push_back(std::move(e));
    if (next == 2 && offset < 4 && out.size() < most) out.push_back(ours);
  }
  return out;
}

Result<struct statvfs> StorlabDir::StatFs(uint64_t ino) {
  return inner_->StatFs(Ours(ino) ? kRootIno : ino);
}

Result<struct stat> StorlabDir::Mknod(uint64_t parent, std::string_view name, uint32_t mode,
                                      const Caller& who) {
  if (Reserved(parent, name)) return Status::Exists(".storlab");
  return inner_->Mknod(parent, name, mode, who);
}

Result<struct stat> StorlabDir::Mkdir(uint64_t parent, std::string_view name, uint32_t mode,
                                      const Caller& who) {
  if (Reserved(parent, name)) return Status::Exists(".storlab");
  return inner_->Mkdir(parent, name, mode, who);
}

Result<struct stat> StorlabDir::Symlink(std::string_view target, uint64_t parent,
                                        std::string_view name, const Caller& who) {
  if (Reserved(parent, name)) return Status::Exists(".storlab");
  return inner_->Symlink(target, parent, name, who);
}

Result<std::string> StorlabDir::Readlink(uint64_t ino) {
  if (Ours(ino)) return Status::InvalidArgument("not a symbolic link");
  return inner_->Readlink(ino);
}

Status StorlabDir::Unlink(uint64_t parent, std::string_view name) {
  if (Reserved(parent, name)) return Refused();
  return inner_->Unlink(parent, name);
}

Status StorlabDir::Rmdir(uint64_t parent, std::string_view name) {
  if (Reserved(parent, name)) return Refused();
  return inner_->Rmdir(parent, name);
}

Status StorlabDir::Rename(uint64_t parent, std::string_view name, uint64_t new_parent,
                          std::string_view new_name, uint32_t flags) {
  if (Reserved(parent, name) || Reserved(new_parent, new_name)) return Refused();
  return inner_->Rename(parent, name, new_parent, new_name, flags);
}

Result<struct stat> StorlabDir::Link(uint64_t ino, uint64_t new_parent, std::string_view new_name) {
  if (Ours(ino) || Reserved(new_parent, new_name)) return Refused();
  return inner_->Link(ino, new_parent, new_name);
}

void StorlabDir::SetAttr(uint64_t ino, const SetAttrs& set, AttrReply reply) {
  if (!Ours(ino)) return inner_->SetAttr(ino, set, std::move(reply));
  // O_TRUNC on control (`echo cmd > control`) is fine; nothing else changes.
  if (set.mode || set.uid || set.gid || (set.size && ino != kControlIno)) {
    return reply(Refused());
  }
  reply(GetAttr(ino));
}

Result<OpenAnswer> StorlabDir::Open(uint64_t ino, int flags) {
  if (!Ours(ino)) return inner_->Open(ino, flags);
  if (ino == kDirIno) return Status::IsDirectory(".storlab");
  if (ino != kStatsIno && ino != kControlIno) return Status::NotFound("no inode");
  if (ino == kStatsIno && (flags & O_ACCMODE) != O_RDONLY) return Refused();
  std::string text = ino == kStatsIno ? StatsText() : std::string();
  std::lock_guard<std::mutex> l(mu_);
  if (ino == kControlIno) text = last_answer_;
  const uint64_t fh = next_fh_++;
  open_.emplace(fh, std::move(text));
  OpenAnswer a;
  a.fh = fh;
  a.direct_io = true;
  return a;
}

Result<std::pair<struct stat, OpenAnswer>> StorlabDir::Create(uint64_t parent,
                                                              std::string_view name, uint32_t mode,
                                                              int flags, const Caller& who) {
  if (Reserved(parent, name)) return Status::Exists(".storlab");
  return inner_->Create(parent, name, mode, flags, who);
}

void StorlabDir::Release(uint64_t ino, uint64_t fh) {
  if (!Ours(ino)) return inner_->Release(ino, fh);
  std::lock_guard<std::mutex> l(mu_);
  open_.erase(fh);
}

Result<OpenAnswer> StorlabDir::OpenDir(uint64_t ino) {
  if (ino == kDirIno) return OpenAnswer{};
  if (Ours(ino)) return Status::NotDirectory("inode " + std::to_string(ino));
  return inner_->OpenDir(ino);
}

void StorlabDir::Read(uint64_t ino, uint64_t fh, uint64_t offset, size_t size, ReadReply reply) {
  if (!Ours(ino)) return inner_->Read(ino, fh, offset, size, std::move(reply));
  std::unique_lock<std::mutex> l(mu_);
  auto it = open_.find(fh);
  if (it == open_.end()) {
    l.unlock();
    return reply(Status::InvalidArgument("not an open .storlab file"), nullptr, 0);
  }
  const std::string text = it->second;
  l.unlock();
  if (offset >= text.size()) return reply(Status(), nullptr, 0);
  const size_t n = std::min<uint64_t>(size, text.size() - offset);
  reply(Status(), reinterpret_cast<const uint8_t*>(text.data()) + offset, n);
}

void StorlabDir::Write(uint64_t ino, uint64_t fh, uint64_t offset, const uint8_t* data, size_t size,
                       WriteReply reply) {
  if (!Ours(ino)) return inner_->Write(ino, fh, offset, data, size, std::move(reply));
  if (ino != kControlIno) return reply(Refused());
  if (size > kMaxControlLine * 4) {
    return reply(Status::InvalidArgument("a control write of " + std::to_string(size) +
                                         " bytes (commands are short lines)"));
  }
  std::unique_lock<std::mutex> l(mu_);
  if (!open_.count(fh)) {
    l.unlock();
    return reply(Status::InvalidArgument("not an open .storlab file"));
  }
  jobs_.push_back(
      Job{std::string(reinterpret_cast<const char*>(data), size), fh, size, std::move(reply)});
  l.unlock();
  cv_.notify_one();
}

void StorlabDir::Fsync(uint64_t ino, uint64_t fh, bool datasync, StatusReply reply) {
  if (Ours(ino)) return reply(Status());
  inner_->Fsync(ino, fh, datasync, std::move(reply));
}

void StorlabDir::Fallocate(uint64_t ino, uint64_t fh, int mode, uint64_t offset, uint64_t length,
                           StatusReply reply) {
  if (Ours(ino)) return reply(Refused());
  inner_->Fallocate(ino, fh, mode, offset, length, std::move(reply));
}

void StorlabDir::SyncAll(StatusReply reply) { inner_->SyncAll(std::move(reply)); }

}  // namespace storlab
