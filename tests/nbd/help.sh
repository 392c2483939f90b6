#!/usr/bin/env bash
# `nbdkit PLUGIN --help` explains every parameter the plugin declares in
# `--dump-plugin` (storlab_parameters), and --dump-plugin says the thread
# model is parallel (a client's queue depth reaches the model).
source "$(dirname "$0")/lib.sh"
"${preload[@]}" nbdkit "$STORLAB_PLUGIN" --dump-plugin >"$tmp/dump" || fail "--dump-plugin failed"
grep -qx 'thread_model=parallel' "$tmp/dump" || fail "thread model: $(grep thread_model "$tmp/dump")"
params=$(sed -n 's/^storlab_parameters=//p' "$tmp/dump")
[[ -n $params ]] || fail "--dump-plugin lists no storlab_parameters"
"${preload[@]}" nbdkit "$STORLAB_PLUGIN" --help >"$tmp/help" 2>&1 || fail "--help failed"
for p in $params; do
  grep -q "^$p=" "$tmp/help" || fail "--help does not explain $p="
done
# And nothing the help explains is missing from the list.
for p in $(sed -n 's/^\([a-z_]*\)=.*/\1/p' "$tmp/help" | sort -u); do
  [[ " $params " == *" $p "* ]] || fail "--help explains $p= but storlab_parameters lacks it"
done
echo ok
