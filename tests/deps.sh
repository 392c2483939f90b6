#!/usr/bin/env bash
# The include graph between storlab's folders, and a check of its direction.
#
#   bash tests/deps.sh           print the graph, then check it (what ctest runs)
#   bash tests/deps.sh --check   only the check: silent unless an include is wrong
#   bash tests/deps.sh --tiers   the graph between tiers only
#
# Every `#include "..."` of a project header in sim/, workloads/, nbd/,
# fusefs/, cli/, bench/ and tests/ is an edge from the including file's folder
# to the included file's folder. Folders belong to tiers (docs/developing.md,
# "Dependency direction"); a file may include its own group and the groups of
# lower tiers, never a higher tier or a sibling group of its own tier:
#
#   0 core      sim/ (its own files), sim/store/
#   1 models    sim/devices/  |  sim/layers/  |  sim/fs/        (siblings)
#   2 profile   sim/profile/
#   3 serve     sim/serve/
#   4 vfs       sim/serve/vfs/            (the FUSE mount's file system)
#   5 fronts    workloads/  |  nbd/  |  fusefs/                 (siblings)
#   6 cli       cli/
#   7 tests     tests/  |  bench/          (may include anything below)
#
# Exits 1 and lists each wrong include (file:line) if there is one.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=all
case ${1:-} in
  "") ;;
  --check) mode=check ;;
  --tiers) mode=tiers ;;
  -h | --help) sed -n '2,24s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) echo "deps.sh: unknown option $1 (--help)" >&2; exit 2 ;;
esac

# group FOLDER: prints "TIER GROUP" for a folder, or nothing if outside.
group() {
  case $1 in
    sim | sim/store | sim/store/*) echo "0 core" ;;
    sim/devices | sim/devices/*) echo "1 devices" ;;
    sim/layers | sim/layers/*) echo "1 layers" ;;
    sim/fs | sim/fs/*) echo "1 fs" ;;
    sim/profile | sim/profile/*) echo "2 profile" ;;
    sim/serve/vfs | sim/serve/vfs/*) echo "4 vfs" ;;
    sim/serve | sim/serve/*) echo "3 serve" ;;
    workloads | workloads/*) echo "5 workloads" ;;
    nbd | nbd/*) echo "5 nbd" ;;
    fusefs | fusefs/*) echo "5 fusefs" ;;
    cli | cli/*) echo "6 cli" ;;
    tests | tests/*) echo "7 tests" ;;
    bench | bench/*) echo "7 bench" ;;
    sim/*) echo "9 unplaced" ;;  # a new folder in sim/: place it above
  esac
}

# The sources: tracked and new files in a git checkout, else every file.
sources() {
  local dirs=(sim workloads nbd fusefs cli bench tests)
  if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files --cached --others --exclude-standard -- "${dirs[@]/%//*}"
  else
    local d
    for d in "${dirs[@]}"; do [[ -d $d ]] && find "$d" -type f; done
  fi
}

# Every project include: "from_file:line:to_file".
mapfile -t edges < <(
  sources | grep -E '\.(h|cc)$' | while read -r f; do [[ -f $f ]] && echo "$f"; done |
    xargs -r grep -nHE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' |
    sed -E 's/^([^:]+):([0-9]+):[^"]*"([^"]+)".*/\1:\2:\3/' |
    grep -E ':(sim|workloads|nbd|fusefs|cli|bench|tests)/' || true
)

declare -A tier_of=() group_of=() folder_count=() group_count=()
bad=()
for e in "${edges[@]}"; do
  IFS=: read -r from line to <<<"$e"
  fd=${from%/*} td=${to%/*}
  for d in "$fd" "$td"; do
    if [[ -z ${group_of[$d]:-} ]]; then
      read -r t g < <(group "$d"; echo "9 unplaced")
      tier_of[$d]=$t group_of[$d]=$g
    fi
  done
  [[ $fd == "$td" ]] || folder_count["$fd -> $td"]=$((${folder_count["$fd -> $td"]:-0} + 1))
  fg=${group_of[$fd]} tg=${group_of[$td]} ft=${tier_of[$fd]} tt=${tier_of[$td]}
  [[ $fg == "$tg" ]] || group_count["$fg -> $tg"]=$((${group_count["$fg -> $tg"]:-0} + 1))
  if [[ $fg == unplaced || $tg == unplaced ]]; then
    bad+=("$from:$line: includes $to: folder not placed in a tier (tests/deps.sh)")
  elif [[ $fg != "$tg" ]] && ((ft <= tt)) && ((ft < 7)); then
    if ((ft == tt)); then
      bad+=("$from:$line: includes $to: $fg must not include its sibling $tg")
    else
      bad+=("$from:$line: includes $to: $fg (tier $ft) must not include $tg (tier $tt)")
    fi
  fi
done

print_counts() {  # NAME-OF-ASSOC-ARRAY
  local -n counts=$1
  local k
  for k in "${!counts[@]}"; do printf '  %-48s %4d\n' "$k" "${counts[$k]}"; done | sort
}
if [[ $mode == all ]]; then
  echo "folder include graph (from -> to, number of #include lines):"
  print_counts folder_count
  echo
fi
if [[ $mode == all || $mode == tiers ]]; then
  echo "between groups (tiers: core 0, devices/layers/fs 1, profile 2, serve 3, vfs 4,"
  echo "workloads/nbd/fusefs 5, cli 6, tests/bench 7):"
  print_counts group_count
fi
if ((${#bad[@]})); then
  echo >&2
  echo "deps.sh: ${#bad[@]} includes against the direction of dependency:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
[[ $mode == check ]] || echo "deps.sh: every include follows the direction of dependency"
