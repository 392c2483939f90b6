#!/usr/bin/env bash
# Checks that every C++ file under git is clang-formatted (.clang-format at the
# top: Google base, 100 columns). Exits non-zero and lists the files if not.
#
#   bash tests/format.sh          check (what CI runs)
#   bash tests/format.sh --fix    reformat in place
#   bash tests/format.sh [--fix] FILE...   only these files
#
# Uses clang-format-14 (the version CI installs): other versions format some
# constructs differently, so a file clean under one may fail under another.
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"

fix=0
if [[ ${1:-} == --fix ]]; then
  fix=1
  shift
fi
cf=$(command -v clang-format-14 || true)
if [[ -z $cf ]]; then
  echo "format.sh: clang-format-14 not found (apt-get install clang-format-14)" >&2
  exit 2
fi

if (($#)); then
  files=("$@")
else
  # Tracked and new (untracked, not ignored) files, so a check before
  # `git add` sees them too. Deleted-but-tracked files are skipped.
  mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.h' '*.cc' |
    sort -u | while read -r f; do [[ -f $f ]] && echo "$f"; done)
fi
((${#files[@]})) || exit 0

if ((fix)); then
  printf '%s\0' "${files[@]}" | xargs -0 -n 50 "$cf" -i --style=file
  echo "format.sh: formatted ${#files[@]} files"
  exit 0
fi

# One clang-format run over all files; its diagnostics name the bad files.
log=$(printf '%s\0' "${files[@]}" |
  xargs -0 -n 200 "$cf" --dry-run -Werror --style=file 2>&1 >/dev/null || true)
mapfile -t bad < <(grep -oE '^[^:]+:[0-9]+:[0-9]+: error' <<<"$log" | cut -d: -f1 | sort -u)
if [[ -n $log && ${#bad[@]} -eq 0 ]]; then
  echo "$log" >&2  # clang-format failed for another reason
  exit 2
fi
if ((${#bad[@]})); then
  echo "format.sh: ${#bad[@]} of ${#files[@]} files are not clang-formatted:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "fix with: bash tests/format.sh --fix   (or clang-format-14 -i FILE)" >&2
  exit 1
fi
echo "format.sh: ${#files[@]} files clean"
