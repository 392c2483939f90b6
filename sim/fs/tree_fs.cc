// TreeFs's name space (tree_fs.h); its block map is in tree_fs_data.cc.
#include "sim/fs/tree_fs.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <time.h>

#include <algorithm>

#include "sim/quoted.h"

namespace storlab {
namespace {

struct timespec Now() {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return t;
}

Status CheckName(std::string_view name) {
  if (name.empty()) return Status::InvalidArgument("an empty name");
  if (name.size() > TreeFs::kNameMax) {
    return Status::NameTooLong("a name of " + std::to_string(name.size()) + " bytes (at most " +
                               std::to_string(TreeFs::kNameMax) + ")");
  }
  if (name.find('/') != std::string_view::npos || name.find('\0') != std::string_view::npos)
    return Status::InvalidArgument("name " + Quoted(name) + " holds '/' or NUL");
  return Status();
}

}  // namespace

TreeFs::TreeFs(uint64_t capacity, uint32_t block, uint32_t uid, uint32_t gid)
    : space_(capacity, block) {
  auto root = std::make_unique<Node>();
  struct stat& a = root->attr;
  a.st_ino = kRoot;
  a.st_mode = S_IFDIR | 0755;
  a.st_nlink = 2;
  a.st_uid = uid;
  a.st_gid = gid;
  a.st_blksize = block;
  a.st_atim = a.st_mtim = a.st_ctim = Now();
  root->parent = kRoot;
  root->lookups = 1;  // the kernel's root is never forgotten
  nodes_.emplace(kRoot, std::move(root));
}

Result<TreeFs::Node*> TreeFs::Get(uint64_t ino) {
  auto it = nodes_.find(ino);
  if (it == nodes_.end()) return Status::NotFound("no inode " + std::to_string(ino));
  return it->second.get();
}

Result<const TreeFs::Node*> TreeFs::Get(uint64_t ino) const {
  auto it = nodes_.find(ino);
  if (it == nodes_.end()) return Status::NotFound("no inode " + std::to_string(ino));
  return static_cast<const Node*>(it->second.get());
}

Result<TreeFs::Node*> TreeFs::GetDir(uint64_t ino) {
  ASSIGN_OR_RETURN(Node * n, Get(ino));
  if (!IsDir(*n)) return Status::NotDirectory("inode " + std::to_string(ino));
  return n;
}

void TreeFs::Touch(Node& n, bool mtime, bool ctime) {
  const struct timespec t = Now();
  if (mtime) n.attr.st_mtim = t;
  if (ctime) n.attr.st_ctim = t;
}

void TreeFs::AddName(Node& dir, std::string_view name, uint64_t ino) {
  const uint64_t cookie = dir.next_cookie++;
  dir.names.emplace(std::string(name), std::make_pair(ino, cookie));
  dir.order.emplace(cookie, std::string(name));
  Touch(dir, true, true);
}

void TreeFs::DropName(Node& dir, std::string_view name) {
  auto it = dir.names.find(name);
  if (it == dir.names.end()) return;
  dir.order.erase(it->second.second);
  dir.names.erase(it);
  Touch(dir, true, true);
}

void TreeFs::MaybeFree(uint64_t ino) {
  auto it = nodes_.find(ino);
  if (it == nodes_.end() || ino == kRoot) return;
  const Node& n = *it->second;
  if (n.attr.st_nlink > 0 || n.lookups > 0) return;
  if (n.file) space_.Remove(n.file);
  nodes_.erase(it);
}

bool TreeFs::IsAncestor(uint64_t dir, uint64_t of) const {
  for (uint64_t i = of;;) {
    if (i == dir) return true;
    auto it = nodes_.find(i);
    if (it == nodes_.end() || i == kRoot) return false;
    i = it->second->parent;
  }
}

Result<struct stat> TreeFs::Lookup(uint64_t parent, std::string_view name) {
  ASSIGN_OR_RETURN(Node * dir, GetDir(parent));
  uint64_t ino;
  if (name == ".") {
    ino = parent;
  } else if (name == "..") {
    ino = dir->parent;
  } else {
    RETURN_IF_ERROR(CheckName(name));
    auto it = dir->names.find(name);
    if (it == dir->names.end()) return Status::NotFound("no entry " + Quoted(name));
    ino = it->second.first;
  }
  Node& n = *nodes_.at(ino);
  ++n.lookups;
  return n.attr;
}

void TreeFs::Forget(uint64_t ino, uint64_t n) {
  auto it = nodes_.find(ino);
  if (it == nodes_.end() || ino == kRoot) return;
  Node& node = *it->second;
  node.lookups -= std::min(node.lookups, n);
  MaybeFree(ino);
}

Result<struct stat> TreeFs::GetAttr(uint64_t ino) const {
  ASSIGN_OR_RETURN(const Node* n, Get(ino));
  return n->attr;
}

struct statvfs TreeFs::StatFs() const {
  struct statvfs s = {};
  s.f_bsize = s.f_frsize = space_.block_size();
  s.f_blocks = space_.capacity() / space_.block_size();
  s.f_bfree = s.f_bavail = space_.free_bytes() / space_.block_size();
  s.f_files = nodes_.size() + (1u << 20);
  s.f_ffree = s.f_favail = 1u << 20;  // inodes live in memory: no fixed table
  s.f_namemax = kNameMax;
  return s;
}

Result<struct stat> TreeFs::Make(uint64_t parent, std::string_view name, uint32_t mode,
                                 uint32_t uid, uint32_t gid, std::string_view target) {
  ASSIGN_OR_RETURN(Node * dir, GetDir(parent));
  if (name == "." || name == "..") return Status::Exists(Quoted(name));
  RETURN_IF_ERROR(CheckName(name));
  if (dir->attr.st_nlink == 0) return Status::NotFound("the directory was removed");
  if (dir->names.count(name)) return Status::Exists("entry " + Quoted(name) + " exists");
  const uint32_t type = mode & S_IFMT;
  if (type != S_IFREG && type != S_IFDIR && type != S_IFLNK && type != S_IFIFO &&
      type != S_IFSOCK) {
    return Status::NotPermitted("only files, directories, symbolic links, FIFOs and sockets");
  }
  if (type == S_IFLNK && (target.empty() || target.size() > kSymlinkMax))
    return Status::NameTooLong("a symbolic link's target of " + std::to_string(target.size()) +
                               " bytes");
  const uint64_t ino = next_ino_++;
  auto node = std::make_unique<Node>();
  struct stat& a = node->attr;
  a.st_ino = ino;
  a.st_mode = mode;
  a.st_nlink = type == S_IFDIR ? 2 : 1;
  a.st_uid = uid;
  a.st_gid = gid;
  a.st_blksize = space_.block_size();
  a.st_atim = a.st_mtim = a.st_ctim = Now();
  node->lookups = 1;
  if (type == S_IFDIR) {
    node->parent = parent;
    ++dir->attr.st_nlink;
  } else if (type == S_IFLNK) {
    node->target = std::string(target);
    a.st_size = static_cast<off_t>(target.size());
  } else if (type == S_IFREG) {
    node->file = space_.Create("#" + std::to_string(ino));
  }
  const struct stat out = a;
  nodes_.emplace(ino, std::move(node));
  AddName(*dir, name, ino);
  return out;
}

Result<std::string> TreeFs::Readlink(uint64_t ino) const {
  ASSIGN_OR_RETURN(const Node* n, Get(ino));
  if (!S_ISLNK(n->attr.st_mode)) return Status::InvalidArgument("not a symbolic link");
  return n->target;
}

Status TreeFs::Unlink(uint64_t parent, std::string_view name) {
  ASSIGN_OR_RETURN(Node * dir, GetDir(parent));
  RETURN_IF_ERROR(CheckName(name));
  auto it = dir->names.find(name);
  if (it == dir->names.end()) return Status::NotFound("no entry " + Quoted(name));
  const uint64_t ino = it->second.first;
  Node& n = *nodes_.at(ino);
  if (IsDir(n)) return Status::IsDirectory(Quoted(name) + " is a directory (rmdir)");
  DropName(*dir, name);
  --n.attr.st_nlink;
  Touch(n, false, true);
  MaybeFree(ino);
  return Status();
}

Status TreeFs::Rmdir(uint64_t parent, std::string_view name) {
  ASSIGN_OR_RETURN(Node * dir, GetDir(parent));
  if (name == ".") return Status::InvalidArgument("rmdir of '.'");
  if (name == "..") return Status::NotEmpty("rmdir of '..'");
  RETURN_IF_ERROR(CheckName(name));
  auto it = dir->names.find(name);
  if (it == dir->names.end()) return Status::NotFound("no entry " + Quoted(name));
  const uint64_t ino = it->second.first;
  Node& n = *nodes_.at(ino);
  if (!IsDir(n)) return Status::NotDirectory(Quoted(name) + " is not a directory");
  if (!n.names.empty()) return Status::NotEmpty(Quoted(name) + " is not empty");
  DropName(*dir, name);
  --dir->attr.st_nlink;
  n.attr.st_nlink = 0;
  MaybeFree(ino);
  return Status();
}

Result<struct stat> TreeFs::Link(uint64_t ino, uint64_t new_parent, std::string_view new_name) {
  ASSIGN_OR_RETURN(Node * n, Get(ino));
  if (IsDir(*n)) return Status::NotPermitted("a hard link to a directory");
  ASSIGN_OR_RETURN(Node * dir, GetDir(new_parent));
  if (new_name == "." || new_name == "..") return Status::Exists(Quoted(new_name));
  RETURN_IF_ERROR(CheckName(new_name));
  if (dir->attr.st_nlink == 0) return Status::NotFound("the directory was removed");
  if (dir->names.count(new_name)) return Status::Exists("entry " + Quoted(new_name) + " exists");
  if (n->attr.st_nlink == 0) return Status::NotFound("the file was removed");
  ++n->attr.st_nlink;
  ++n->lookups;
  Touch(*n, false, true);
  AddName(*dir, new_name, ino);
  return n->attr;
}

Status TreeFs::Rename(uint64_t parent, std::string_view name, uint64_t new_parent,
                      std::string_view new_name, uint32_t flags) {
  if (flags & ~uint32_t(RENAME_NOREPLACE | RENAME_EXCHANGE))
    return Status::InvalidArgument("rename flags other than NOREPLACE and EXCHANGE");
  if ((flags & RENAME_NOREPLACE) && (flags & RENAME_EXCHANGE))
    return Status::InvalidArgument("rename with both NOREPLACE and EXCHANGE");
  ASSIGN_OR_RETURN(Node * from, GetDir(parent));
  ASSIGN_OR_RETURN(Node * to, GetDir(new_parent));
  for (std::string_view n : {name, new_name}) {
    if (n == "." || n == "..") return Status::InvalidArgument("rename of " + Quoted(n));
    RETURN_IF_ERROR(CheckName(n));
  }
  auto src = from->names.find(name);
  if (src == from->names.end()) return Status::NotFound("no entry " + Quoted(name));
  const uint64_t ino = src->second.first;
  Node& n = *nodes_.at(ino);
  auto dst = to->names.find(new_name);
  const uint64_t old = dst == to->names.end() ? 0 : dst->second.first;
  if (IsDir(n) && IsAncestor(ino, new_parent))
    return Status::InvalidArgument("moving a directory into itself");
  if (flags & RENAME_EXCHANGE) {
    if (!old) return Status::NotFound("no entry " + Quoted(new_name) + " to exchange with");
    Node& o = *nodes_.at(old);
    if (IsDir(o) && IsAncestor(old, parent))
      return Status::InvalidArgument("moving a directory into itself");
    src->second.first = old;
    dst->second.first = ino;
    if (parent != new_parent) {
      if (IsDir(n)) n.parent = new_parent, --from->attr.st_nlink, ++to->attr.st_nlink;
      if (IsDir(o)) o.parent = parent, ++from->attr.st_nlink, --to->attr.st_nlink;
    }
    Touch(n, false, true);
    Touch(o, false, true);
    Touch(*from, true, true);
    Touch(*to, true, true);
    return Status();
  }
  if (old && (flags & RENAME_NOREPLACE))
    return Status::Exists("entry " + Quoted(new_name) + " exists");
  if (old == ino) return Status();  // two names of one file: nothing to do
  if (old) {
    Node& o = *nodes_.at(old);
    if (IsDir(n) && !IsDir(o))
      return Status::NotDirectory(Quoted(new_name) + " is not a directory");
    if (!IsDir(n) && IsDir(o)) return Status::IsDirectory(Quoted(new_name) + " is a directory");
    if (IsDir(o) && !o.names.empty()) return Status::NotEmpty(Quoted(new_name) + " is not empty");
    DropName(*to, new_name);
    if (IsDir(o)) {
      o.attr.st_nlink = 0;
      --to->attr.st_nlink;
    } else {
      --o.attr.st_nlink;
    }
    Touch(o, false, true);
    MaybeFree(old);
  }
  const std::string keep(name);  // `name` may point into the entry dropped
  DropName(*from, keep);
  AddName(*to, new_name, ino);
  if (IsDir(n) && parent != new_parent) {
    n.parent = new_parent;
    --from->attr.st_nlink;
    ++to->attr.st_nlink;
  }
  Touch(n, false, true);
  return Status();
}

Result<std::vector<TreeFs::Entry>> TreeFs::ReadDir(uint64_t ino, uint64_t offset,
                                                   size_t most) const {
  ASSIGN_OR_RETURN(const Node* dir, Get(ino));
  if (!IsDir(*dir)) return Status::NotDirectory("inode " + std::to_string(ino));
  std::vector<Entry> out;
  if (offset < 1 && out.size() < most) out.push_back({".", ino, S_IFDIR, 1});
  if (offset < 2 && out.size() < most) out.push_back({"..", dir->parent, S_IFDIR, 2});
  for (auto it = dir->order.upper_bound(std::max<uint64_t>(offset, 2));
       it != dir->order.end() && out.size() < most; ++it) {
    const uint64_t child = dir->names.find(it->second)->second.first;
    out.push_back({it->second, child, nodes_.at(child)->attr.st_mode & S_IFMT, it->first});
  }
  return out;
}

Status TreeFs::Chmod(uint64_t ino, uint32_t mode) {
  ASSIGN_OR_RETURN(Node * n, Get(ino));
  n->attr.st_mode = (n->attr.st_mode & S_IFMT) | (mode & 07777);
  Touch(*n, false, true);
  return Status();
}

Status TreeFs::Chown(uint64_t ino, bool set_uid, uint32_t uid, bool set_gid, uint32_t gid) {
  ASSIGN_OR_RETURN(Node * n, Get(ino));
  if (set_uid) n->attr.st_uid = uid;
  if (set_gid) n->attr.st_gid = gid;
  Touch(*n, false, true);
  return Status();
}

Status TreeFs::SetTimes(uint64_t ino, const struct timespec* atime, const struct timespec* mtime) {
  ASSIGN_OR_RETURN(Node * n, Get(ino));
  if (atime) n->attr.st_atim = *atime;
  if (mtime) n->attr.st_mtim = *mtime;
  Touch(*n, false, true);
  return Status();
}

}  // namespace storlab
