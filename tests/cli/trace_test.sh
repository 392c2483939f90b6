#!/usr/bin/env bash
# storlab sim --trace and storlab trace summarize (issue 18, item 4): a small
# job's trace line for line (virtual time is exact), its summary, a power
# cut in the trace, the limit, and bad input.
#   tests/cli/trace_test.sh STORLAB_BINARY
set -uo pipefail
storlab=$1
golden=$(dirname "$0")/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
job=(--stack hdd-7200 --name=w --rw=write --bs=4k --size=16k --ioengine=sync)

# Four 4k writes with fsync after each, through the page cache to the disk.
"$storlab" sim "${job[@]}" --fsync=1 --trace "$tmp/f.trace" > /dev/null 2> "$tmp/err" ||
  fail "fsync run: $(cat "$tmp/err")"
diff -u "$golden/trace_hdd_fsync.trace" "$tmp/f.trace" || fail "the trace differs from golden"
"$storlab" trace summarize "$tmp/f.trace" > "$tmp/f.sum" 2> "$tmp/err" ||
  fail "summarize: $(cat "$tmp/err")"
sed "s|$tmp/f.trace|f.trace|" "$tmp/f.sum" | diff -u "$golden/trace_hdd_fsync.summary" - ||
  fail "the summary differs from golden"

# Tracing changes nothing in the report.
"$storlab" sim "${job[@]}" --fsync=1 > "$tmp/a.txt" 2> /dev/null
"$storlab" sim "${job[@]}" --fsync=1 --trace "$tmp/g.trace" > "$tmp/b.txt" 2> /dev/null
cmp -s "$tmp/a.txt" "$tmp/b.txt" || fail "--trace changed the report"

# A power cut in the trace: survived and lost writes.
"$storlab" sim "${job[@]}" --size=32k --fsync=1 --power-cut-at=20ms --trace "$tmp/c.trace" \
  > /dev/null 2> "$tmp/err" || fail "cut run: $(cat "$tmp/err")"
grep -q '^[0-9]* power-cut - - - 0 0 - -$' "$tmp/c.trace" || fail "no power-cut line"
"$storlab" trace summarize "$tmp/c.trace" > "$tmp/c.sum" || fail "summarize after a cut"
grep -q '^power cut at 20.000 ms' "$tmp/c.sum" || fail "no cut in the summary: $(cat "$tmp/c.sum")"
grep -qx '  survived, durable before the cut: 2 #1 #2' "$tmp/c.sum" || fail "survivors: $(cat "$tmp/c.sum")"
grep -qx '  lost, acknowledged but still volatile: 1 #3 (in hdd)' "$tmp/c.sum" ||
  fail "lost: $(cat "$tmp/c.sum")"

# The limit: the file says so, and so does storlab sim.
"$storlab" sim "${job[@]}" --trace "$tmp/l.trace" --trace-limit 5 > /dev/null 2> "$tmp/err" ||
  fail "limit run: $(cat "$tmp/err")"
grep -q "note: --trace-limit 5 cut the trace short" "$tmp/err" || fail "no note: $(cat "$tmp/err")"
[[ $(grep -c '^[0-9]' "$tmp/l.trace") == 5 ]] || fail "not 5 event lines"
grep -q '^# truncated: the trace limit of 5 lines' "$tmp/l.trace" || fail "no truncated line"
"$storlab" trace summarize "$tmp/l.trace" | grep -q '^note: the trace was cut short' ||
  fail "summarize does not note the cut-short trace"

# Bad input: clear errors naming the file (and the line).
expect_error() {  # expected-substring command...
  local want=$1
  shift
  if "$@" > "$tmp/out" 2> "$tmp/err"; then fail "$* succeeded"; fi
  grep -qF -- "$want" "$tmp/err" || fail "$*: expected '$want', got: $(cat "$tmp/err")"
}
expect_error "storlab trace: $tmp/none: cannot read: No such file or directory" \
  "$storlab" trace summarize "$tmp/none"
printf 'hello\nworld\n' > "$tmp/garbage"
expect_error "storlab trace: $tmp/garbage:1: not a storlab trace" \
  "$storlab" trace summarize "$tmp/garbage"
head -4 "$golden/trace_hdd_fsync.trace" > "$tmp/bad.trace"
echo "12 submit 9 hdd write 0" >> "$tmp/bad.trace"
expect_error "$tmp/bad.trace:5: an event line has 9 fields" \
  "$storlab" trace summarize "$tmp/bad.trace"
expect_error "expected 'summarize FILE'" "$storlab" trace
expect_error "--trace: one run of fio jobs" "$storlab" sim "${job[@]}" --trace x --repeat 2
expect_error "--trace-limit: '0'" "$storlab" sim "${job[@]}" --trace x --trace-limit 0
expect_error "--trace: cannot write '/nonexistent/x'" \
  "$storlab" sim "${job[@]}" --trace /nonexistent/x
echo PASS
