#include "workloads/fio/error_policy.h"

#include <algorithm>
#include <cerrno>
#include <string>

#include "sim/quoted.h"

namespace storlab::fio {
namespace {

// options.c str2error(): the names fio knows, errno 1 to 34 in order.
constexpr std::string_view kErrnoNames[] = {
    "EPERM",  "ENOENT",  "ESRCH",  "EINTR",  "EIO",    "ENXIO",   "E2BIG",  "ENOEXEC", "EBADF",
    "ECHILD", "EAGAIN",  "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY",  "EEXIST",  "EXDEV",
    "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE",  "ENOTTY", "ETXTBSY", "EFBIG",
    "ENOSPC", "ESPIPE",  "EROFS",  "EMLINK", "EPIPE",  "EDOM",    "ERANGE"};

// ignore_error_type(): a name starting with 'E' through str2error, else
// atoi() of it, negative taken positive; 0 means unknown.
int ParseErrno(std::string_view s) {
  if (s[0] == 'E') {
    auto it = std::find(std::begin(kErrnoNames), std::end(kErrnoNames), s);
    return it == std::end(kErrnoNames) ? 0 : static_cast<int>(it - std::begin(kErrnoNames)) + 1;
  }
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  int64_t v = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9' && v < 1000000; ++i) v = v * 10 + (s[i] - '0');
  return static_cast<int>(v);
}

// Calls fn(type, list) for each ',' part, and fn on each ':' errno of it.
template <typename Fn>
void ForEachList(std::string_view value, Fn fn) {
  int type = 0;
  size_t start = 0;
  for (;;) {
    size_t comma = value.find(',', start);
    fn(type, value.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
    ++type;
  }
}

// The errnos of one list, up to its first empty entry (fio's strsep loop
// stops there).
std::vector<std::string_view> Entries(std::string_view list) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t colon = list.find(':', start);
    std::string_view e =
        list.substr(start, colon == std::string_view::npos ? colon : colon - start);
    if (e.empty()) break;
    out.push_back(e);
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return out;
}

std::string_view Trim(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

}  // namespace

int ErrorPolicy::Type(int dir, int err) {
  if (err == EILSEQ) return kVerifyType;
  return dir == 0 ? kReadType : kWriteType;
}

bool ErrorPolicy::NonFatal(int type, int err) const {
  if (!(continue_mask & (1u << type))) return false;
  const std::vector<int>& list = ignore[static_cast<size_t>(type)];
  if (list.empty()) return err == EIO || err == EILSEQ;  // fio's __NON_FATAL_ERR
  return std::find(list.begin(), list.end(), err) != list.end();
}

void SetContinueOnError(ErrorPolicy* p, std::string_view value) {
  if (value == "read") {
    p->continue_mask = 1u << ErrorPolicy::kReadType;
  } else if (value == "write") {
    p->continue_mask = 1u << ErrorPolicy::kWriteType;
  } else if (value == "io") {
    p->continue_mask = (1u << ErrorPolicy::kReadType) | (1u << ErrorPolicy::kWriteType);
  } else if (value == "verify") {
    p->continue_mask = 1u << ErrorPolicy::kVerifyType;
  } else if (value == "all" || value == "1") {
    p->continue_mask = 0xffff;  // ERROR_TYPE_ANY
  } else {
    p->continue_mask = 0;  // none, 0
  }
}

void ApplyIgnoreError(ErrorPolicy* p, std::string_view value) {
  ForEachList(Trim(value), [p](int type, std::string_view list) {
    std::vector<int> errs;
    for (std::string_view e : Entries(list)) errs.push_back(ParseErrno(e));
    if (errs.empty()) return;
    p->continue_mask |= 1u << type;
    p->ignore[static_cast<size_t>(type)] = std::move(errs);
  });
}

Status CheckIgnoreError(std::string_view value) {
  Status st;
  ForEachList(Trim(value), [&st](int type, std::string_view list) {
    if (!st.ok()) return;
    if (type >= ErrorPolicy::kTypes) {
      st = Status::InvalidArgument(
          "at most three lists (read,write,verify), each errors "
          "separated by ':'");
      return;
    }
    for (std::string_view e : Entries(list)) {
      if (ParseErrno(e) == 0) {
        st = Status::InvalidArgument("unknown error " + Quoted(e) +
                                     " (an errno name EPERM..ERANGE, or its number)");
        return;
      }
    }
  });
  return st;
}

}  // namespace storlab::fio
