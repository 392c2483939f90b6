#!/usr/bin/env bash
# storlab stacks: the catalog lists, every entry shows resolved and loads
# back, probe runs, and bad input fails with a message naming the place.
#   tests/cli/stacks_test.sh STORLAB_BINARY
set -euo pipefail
storlab=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$storlab" --help | grep -q stacks || fail "--help does not list stacks"
"$storlab" stacks --help | grep -q probe || fail "stacks --help does not describe probe"

list=$("$storlab" stacks)
[[ $list == *ram* ]] || fail "catalog lacks ram"
[[ $list != *broken* ]] || fail "a catalog stack is broken: $list"

# Every catalog stack prints resolved, and the resolved text loads again.
while read -r name _; do
  "$storlab" stacks show "$name" > "$tmp/$name.toml" || fail "show $name"
  grep -q "^\[node\." "$tmp/$name.toml" || fail "show $name printed no nodes"
  "$storlab" stacks show "$tmp/$name.toml" > /dev/null || fail "resolved $name does not load back"
done <<< "$list"

# A size written with a unit shows its exact byte count.
"$storlab" stacks show hdd-7200 | grep -q '^capacity = "16TB" .*(16000000000000 bytes)$' ||
  fail "show hdd-7200 lacks the capacity's byte count"

# types: the node types; types TYPE: every key with its meaning.
"$storlab" stacks types | grep -q "^hdd " || fail "types lacks hdd"
"$storlab" stacks types hdd > "$tmp/hdd-keys" || fail "types hdd"
grep -q "^rpm  *integer .*7200 .*spindle speed" "$tmp/hdd-keys" || fail "types hdd: no rpm in: $(cat "$tmp/hdd-keys")"
grep -q "KiB = 1024, KB = 1000" "$tmp/hdd-keys" || fail "types hdd does not say what KiB means"
"$storlab" sim --cmdhelp | grep -q "4KiB is 4000" || fail "sim --cmdhelp does not say what KiB means"
"$storlab" sim --cmdhelp=bs | grep -q "kb_base=1024" || fail "sim --cmdhelp=bs does not give the size rule"
if "$storlab" stacks types hdx 2> "$tmp/err"; then fail "unknown node type accepted"; fi
grep -q "unknown node type 'hdx'.*hdd" "$tmp/err" || fail "unknown type: $(cat "$tmp/err")"

"$storlab" stacks probe --seconds 0.2 ram | grep -q "^ram" || fail "probe ram"

# Bad input: non-zero exit, message on stderr naming file, line and key.
printf '[node.d]\ntype = "ram"\ncapacity = "12 parsecs"\n' > "$tmp/bad.toml"
if "$storlab" stacks show "$tmp/bad.toml" 2> "$tmp/err"; then fail "bad unit accepted"; fi
grep -q "bad.toml:3" "$tmp/err" || fail "no file:line in: $(cat "$tmp/err")"
grep -q "capacity" "$tmp/err" || fail "no key in: $(cat "$tmp/err")"
if "$storlab" stacks show no-such-stack 2> /dev/null; then fail "unknown stack accepted"; fi
if "$storlab" stacks frobnicate 2> /dev/null; then fail "unknown subcommand accepted"; fi
if "$storlab" no-such-command 2> /dev/null; then fail "unknown command accepted"; fi
echo "stacks_test: ok"
