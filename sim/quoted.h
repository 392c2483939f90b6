// Quoted: the one way text from the user (a value, a name, a line of a
// file) goes into a message.
//
// Input may be hostile or huge: a 1 MB capacity string, a line of
// /etc/shadow, a name with terminal escape sequences, a list of 20,000 node
// names. Quoted() puts at most a short, printable prefix of it in single
// quotes; QuotedList() names the first few items of a list and counts the
// rest. Pure functions, thread-safe.
#ifndef STORLAB_SIM_QUOTED_H_
#define STORLAB_SIM_QUOTED_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace storlab {

// Characters of a value that a message shows.
inline constexpr size_t kQuotedMax = 40;
// Items of a list that a message names.
inline constexpr size_t kQuotedListMax = 6;

// `text` in single quotes: bytes outside printable ASCII as \xNN (a tab as
// \t), and when it is longer than `max` bytes, its first `max` bytes, then
// "..." and its length: 'abc...' (1048576 bytes).
std::string Quoted(std::string_view text, size_t max = kQuotedMax);
// The same without the quotes and the length: at most `max` bytes of
// `text`, escaped as above, then "..." if there was more.
std::string Printable(std::string_view text, size_t max = kQuotedMax);

// "'a', 'b', 'c'" — or, past `max` items, "'a', 'b', ... 'f' and 14 more".
// Each item is Quoted().
std::string QuotedList(const std::vector<std::string>& items, size_t max = kQuotedListMax);

}  // namespace storlab

#endif  // STORLAB_SIM_QUOTED_H_
