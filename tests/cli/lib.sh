# Shared by the command-line tests (source it after setting $tmp, a scratch
# directory):
#   fail MESSAGE                 print FAIL: MESSAGE and exit 1
#   expect_error WHAT PATTERN CMD...
#                                CMD fails (status 1 or 2, not a crash) and its
#                                stderr matches PATTERN; its stdout is in $tmp/out
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_error() {
  local what=$1 pattern=$2
  shift 2
  "$@" > "$tmp/out" 2> "$tmp/err"
  local rc=$?
  [[ $rc == 1 || $rc == 2 ]] || fail "$what: exit status $rc (stderr: $(head -c 300 "$tmp/err"))"
  grep -q -- "$pattern" "$tmp/err" || fail "$what: stderr lacks '$pattern': $(head -c 300 "$tmp/err")"
}
