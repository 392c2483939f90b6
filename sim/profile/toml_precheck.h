// PrecheckToml: what a stack file must not contain before toml11 parses it.
//
// toml11 3.7 trusts its input: it reads out of bounds on invalid UTF-8 in
// literal strings (toml11 issue #199), recurses once per level of nesting
// (10,000 nested arrays, inline tables or dotted-key parts overflow the
// stack), and takes time quadratic in the number of items of one array or
// inline table (20,000 items: 10-25 s). So one linear pass over the text
// checks, with the file and line of the first offence:
//   - the text is UTF-8 (the TOML spec says so);
//   - nothing nests deeper than kMaxTomlDepth levels (each table-header or
//     dotted-key part, array and inline table is one level);
//   - no array or inline table has more than kMaxTomlItems items;
//   - at most kMaxNodes [node.NAME] tables (or node.NAME.key lines): the
//     loader could not build more, so reading stops at the first one over.
// The pass knows TOML's strings (basic, literal, multi-line) and comments,
// so brackets and dots inside them count for nothing.
// Pure functions, thread-safe.
#ifndef STORLAB_SIM_PROFILE_TOML_PRECHECK_H_
#define STORLAB_SIM_PROFILE_TOML_PRECHECK_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "sim/status.h"

namespace storlab::stack_file {

// A stack file needs four or five levels ([node.x], a key, a list).
constexpr int kMaxTomlDepth = 32;
// Enough for a list of every node of the largest stack.
constexpr size_t kMaxTomlItems = 4096;
// Nodes in one stack, counting every copy (counts add up across children
// and multiply through 'use'; each node keeps ~80 KB of statistics, so a
// few lines must not be able to ask for millions).
constexpr int kMaxNodes = 2048;

// OK, or an error "label:line: ..." for the first offence.
Status PrecheckToml(std::string_view text, const std::string& label);

}  // namespace storlab::stack_file

#endif  // STORLAB_SIM_PROFILE_TOML_PRECHECK_H_
