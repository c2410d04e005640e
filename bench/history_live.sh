#!/bin/sh
# bench/history_live.sh - the live check of `boardbench history`
# (docs/benchmarks/history.md, "The live check"): N runs of a part of
# the quick suite on this host, the first FIRST-1 with binary A and the
# rest with binary B, each run's results file in OUT/.  With A = B (the
# flat check) no change point may be found; with B built KERNEL_OPT=-O0
# the change point must be at run FIRST (+-1) with the build flags of the
# measured kernels named as its cause.
#   sh bench/history_live.sh OUT A-BINARY B-BINARY [N [FIRST [ONLY]]]
# e.g. make && make BUILD=build-O0 KERNEL_OPT=-O0 &&
#   sh bench/history_live.sh /tmp/live-ab ./boardbench build-O0/boardbench 30 16
#   ./boardbench history add /tmp/live-ab.sqlite /tmp/live-ab && ./boardbench history changes /tmp/live-ab.sqlite
set -eu
out=$1 a=$2 b=$3 n=${4:-30} first=${5:-16} only=${6:-stream,csum,mem}
mkdir -p "$out"
i=1
while [ "$i" -le "$n" ]; do
	bin=$a
	[ "$i" -ge "$first" ] && bin=$b
	"$bin" run --only "$only" --outdir "$out" --label "live=$i" >"$out/run-$i.log" 2>&1
	echo "run $i: $bin: $(tail -1 "$out/run-$i.log")"
	i=$((i + 1))
done
