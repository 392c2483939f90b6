#!/usr/bin/env bash
# fio's own consumer tools on storlab sim's outputs (issue 17):
# fio_jsonplus_clat2csv on --output-format=json+ writes data rows (and
# --validate agrees with the bins), fio2gnuplot -b and fio_generate_plots
# draw the write_bw_log / write_lat_log / write_iops_log files, and the
# terse line has fio's 130 fields. Skips (77) when fio's tools are missing.
#   tests/cli/fio_tools_test.sh STORLAB_BINARY
set -uo pipefail
storlab=$1
for t in fio_jsonplus_clat2csv fio2gnuplot fio_generate_plots gnuplot python3; do
  command -v "$t" > /dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
job=(--stack sata-ssd --name=jp --ioengine=libaio --direct=1 --iodepth=4 --size=16m
     --rw=randrw --bs=4k)

# json+ -> CSV: a header and data rows; --validate rebuilds the bins from it.
"$storlab" sim "${job[@]}" --slat_percentiles=1 --lat_percentiles=1 --output-format=json+ \
  > "$tmp/jp.json" || fail "json+ run"
(cd "$tmp" && fio_jsonplus_clat2csv jp.json jp.csv > clat2csv.out) || fail "fio_jsonplus_clat2csv"
rows=$(($(wc -l < "$tmp/jp_job0.csv") - 1))
(( rows > 0 )) || fail "fio_jsonplus_clat2csv wrote no data rows: $(head -c 300 "$tmp/jp_job0.csv")"
(cd "$tmp" && fio_jsonplus_clat2csv jp.json jp.csv --validate) | grep -q validated ||
  fail "fio_jsonplus_clat2csv --validate"
echo "fio_jsonplus_clat2csv: $rows data rows"

# json,normal: both reports, JSON first (fio's order); terse: 130 fields.
"$storlab" sim "${job[@]}" --output-format=terse,json,normal > "$tmp/all.txt" || fail "list run"
head -1 "$tmp/all.txt" | grep -q '^jp: (g=0)' || fail "the normal header is not first"
terse=$(grep '^3;fio-3.33;jp;' "$tmp/all.txt") || fail "terse line missing"
[[ $(awk -F';' '{print NF}' <<< "$terse") == 130 ]] || fail "terse field count"
[[ $(grep -n '^3;fio' "$tmp/all.txt" | cut -d: -f1) -lt $(grep -n '"fio version"' "$tmp/all.txt" |
   cut -d: -f1) ]] || fail "terse is not before the JSON"
grep -q '"fio version" : "fio-3.33"' "$tmp/all.txt" || fail "JSON missing"
grep -q '^Run status group 0' "$tmp/all.txt" || fail "normal report missing"
[[ $("$storlab" sim "${job[@]}" --minimal | wc -l) == 1 ]] || fail "--minimal prints one line"

# The logs, in the current directory as fio writes them, drawn by fio's tools.
mkdir "$tmp/logs"
(cd "$tmp/logs" && "$storlab" sim "${job[@]}" --runtime=2 --time_based --write_bw_log=jp \
  --write_lat_log=jp --write_iops_log=jp > /dev/null) || fail "log run"
for f in jp_bw.1.log jp_lat.1.log jp_slat.1.log jp_clat.1.log jp_iops.1.log; do
  [[ -s $tmp/logs/$f ]] || fail "$f missing or empty"
done
(cd "$tmp/logs" && fio2gnuplot -b -g > fio2gnuplot.out 2>&1) || fail "fio2gnuplot -b"
ls "$tmp/logs"/*.png > /dev/null 2>&1 || fail "fio2gnuplot drew nothing: $(tail -3 "$tmp/logs/fio2gnuplot.out")"
(cd "$tmp/logs" && fio_generate_plots storlab > plots.out 2>&1) || fail "fio_generate_plots"
for t in bw lat clat slat iops; do
  [[ -s $tmp/logs/storlab-$t.svg ]] || fail "fio_generate_plots drew no $t graph"
done
echo "fio2gnuplot and fio_generate_plots drew the logs"
