#!/usr/bin/env bash
# Runs clang-tidy (the checks in .clang-tidy, every one an error) on the
# sources of sim/, workloads/, cli/, nbd/ and fusefs/ (not tests), in parallel.
#
#   bash tests/tidy.sh [-p BUILD] [-j JOBS] [--since COMMIT | --since-base] [FILE...]
#   bash tests/tidy.sh [-p BUILD] [-j JOBS] --record
#
# BUILD is a clang build directory with compile_commands.json (default
# build/fuzz; `cmake --preset fuzz` or `--preset sanitize` makes one). FILEs
# default to every .cc of those folders under git. Exits non-zero when
# clang-tidy reports anything; fix it, or silence one line with
# `// NOLINT(check-name)` and the reason beside it.
#
# --since COMMIT tidies only the files whose findings can differ from
# COMMIT's: each .cc changed since COMMIT (committed or not), and each that
# includes, directly or through other project headers, a header changed
# since. --since-base takes COMMIT from .ci/tidy-base, the last commit on
# which every file passed (what CI runs), and also tidies each file whose
# compile command (from BUILD) differs from the one recorded with it in
# .ci/tidy-flags (tests/tidy_flags.py). Every file when what decides the
# findings changed: .clang-tidy, clang-tidy's version or its arguments here
# (recorded), the build files (top CMakeLists.txt or those folders',
# cmake/, CMakePresets.json) when no compile commands were recorded for
# COMMIT, or when COMMIT is not in this clone (a shallow one).
# --record runs every file and, if all pass on a tree without uncommitted
# changes, writes HEAD, clang-tidy's version and every file's compile
# command hash into .ci/tidy-base and .ci/tidy-flags (commit them).
set -euo pipefail
export LC_ALL=C
src=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$src"
build=build/fuzz
jobs=$(nproc)
since="" record=0
while (($#)); do
  case $1 in
    -p) build=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --since) since=$2; shift 2 ;;
    --since-base) since=base; shift ;;
    --record) record=1; shift ;;
    -h | --help) sed -n '2,28s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
tidy=$(command -v clang-tidy-14 || true)
if [[ -z $tidy ]]; then
  echo "tidy.sh: clang-tidy-14 not found (apt-get install clang-tidy)" >&2
  exit 2
fi
if [[ ! -f $build/compile_commands.json ]]; then
  echo "tidy.sh: no $build/compile_commands.json (cmake --preset fuzz first, or -p BUILD)" >&2
  exit 2
fi
version=$("$tidy" --version | sed -n 's/^ *\(.*version [0-9.]*\).*/\1/p' | head -1)
# How clang-tidy runs on each file (with -p BUILD); recorded with the base.
tidy_args=(--quiet)
base_file=.ci/tidy-base
flags_file=.ci/tidy-flags
flags_known=0  # the base's compile commands are recorded: compare them file by file
if [[ $since == base ]]; then
  [[ -f $flags_file ]] && flags_known=1
  since=$(sed -n 's/^commit //p' "$base_file" 2>/dev/null || true)
  if [[ -z $since ]]; then
    echo "tidy.sh: no commit in $base_file: every file"
  elif [[ $(sed -n 's/^clang-tidy //p' "$base_file") != "$version" ||
    $(sed -n 's/^args //p' "$base_file") != "${tidy_args[*]}" ]]; then
    echo "tidy.sh: $base_file was recorded with another clang-tidy or other arguments: every file"
    since=""
  fi
fi

# Every .cc the build compiles (a glob picks up new files at configure).
all_files() {
  git ls-files -- 'sim/*.cc' 'workloads/*.cc' 'cli/*.cc' 'nbd/*.cc' 'fusefs/*.cc' |
    while read -r f; do
      grep -qF "\"file\": \"$src/$f\"" "$build/compile_commands.json" && echo "$f"
    done
}

# The .cc files of all_files() whose findings can differ from commit $1's.
files_since() {
  local base=$1
  if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
    echo "tidy.sh: commit $base is not in this clone: every file" >&2
    all_files
    return
  fi
  local changed
  changed=$({ git diff --name-only "$base" --; git ls-files --others --exclude-standard; } | sort -u)
  # The files' compile flags come from the top CMakeLists.txt, cmake/ and
  # their own folders' (tests/ compiles only tests, which are not tidied):
  # with the base's compile commands recorded, the files whose command
  # changed count as changed; without, a change to those is every file.
  local build_files='^((sim|workloads|cli|nbd|fusefs)/(.*/)?)?CMakeLists\.txt$|^CMakePresets\.json$|^cmake/'
  if grep -qE '^\.clang-tidy$' <<<"$changed" ||
    { ((!flags_known)) && grep -qE "$build_files" <<<"$changed"; }; then
    echo "tidy.sh: the checks or the compile flags changed since $base: every file" >&2
    all_files
    return
  fi
  if ((flags_known)); then
    local reflagged
    reflagged=$(comm -13 <(grep -v '^#' "$flags_file" | sort) \
      <(python3 tests/tidy_flags.py "$build" "$src" | sort) | cut -d' ' -f1)
    echo "tidy.sh: $(grep -c . <<<"$reflagged" || true) files compile with other flags than at ${base:0:12}" >&2
    changed=$(printf '%s\n%s\n' "$changed" "$reflagged" | sed '/^$/d' | sort -u)
  fi
  # The project's include graph ("file included" pairs), walked backwards
  # from the changed files to every file that includes one of them.
  local graph
  graph=$(git grep -E '^#include "[^"]+"' -- 'sim/*' 'workloads/*' 'cli/*' 'nbd/*' 'fusefs/*' |
    sed -E 's/^([^:]+):#include "([^"]+)".*/\1 \2/')
  local affected
  affected=$(awk -v changed="$changed" '
    BEGIN { n = split(changed, c, "\n"); for (i = 1; i <= n; i++) hit[c[i]] = 1 }
    { from[NR] = $1; to[NR] = $2 }
    END {
      do {
        grew = 0
        for (i = 1; i <= NR; i++)
          if ((to[i] in hit) && !(from[i] in hit)) { hit[from[i]] = 1; grew = 1 }
      } while (grew)
      for (f in hit) print f
    }' <<<"$graph" | sort)
  comm -12 <(all_files | sort) <(echo "$affected")
  echo "tidy.sh: $(grep -c . <<<"$changed" || true) files changed since ${base:0:12}" >&2
}

if (($#)); then
  files=("$@")
elif [[ -n $since ]] && ((!record)); then
  mapfile -t files < <(files_since "$since")
else
  mapfile -t files < <(all_files)
fi
((${#files[@]})) || { echo "tidy.sh: no files to tidy"; exit 0; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
set +e
printf '%s\0' "${files[@]}" |
  xargs -0 -P "$jobs" -n 1 "$tidy" -p "$build" "${tidy_args[@]}" >"$log" 2>&1
rc=$?
set -e
# clang-tidy prints "N warnings generated." for warnings in system headers it
# filtered out: noise.
grep -vE '^[0-9]+ warnings? generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter' "$log" || true
nfind=$({ grep -E ": (warning|error): " "$log" || true; } | sort -u | wc -l)
echo "tidy.sh: ${#files[@]} files, $nfind findings, $(($(date +%s) - start))s"
((rc == 0 && nfind == 0)) || exit 1
if ((record)); then
  if [[ -n $(git status --porcelain --untracked-files=no) ]]; then
    echo "tidy.sh: uncommitted changes: not recorded (commit, then --record again)" >&2
    exit 1
  fi
  {
    echo "# The last commit on which 'bash tests/tidy.sh' passed over every file,"
    echo "# and the clang-tidy that ran it (written by 'bash tests/tidy.sh --record')."
    echo "# CI tidies only what can differ since (tests/tidy.sh --since-base)."
    echo "commit $(git rev-parse HEAD)"
    echo "clang-tidy $version"
    echo "args ${tidy_args[*]}"
  } >"$base_file"
  {
    echo "# Each tidied file's compile command at .ci/tidy-base's commit (tests/tidy_flags.py)."
    python3 tests/tidy_flags.py "$build" "$src"
  } >"$flags_file"
  echo "tidy.sh: recorded $(git rev-parse --short HEAD) in $base_file and $flags_file"
fi
