#!/bin/sh
# tests/integration/test_bench_args.sh - the measurement scripts under
# bench/ turn away bad options with one line and exit 2 before measuring
# anything, and --help/-h prints their usage.  Their measurements are not
# run here: they take minutes and their numbers are not pass/fail.
. tests/integration/lib.sh

BB=$BB_ABS
export BB
expect_exit 0 "compare_busy.sh -h exits 0" -- bash bench/compare_busy.sh -h
expect_grep "busy loop" "$TMPD/out" "  ... and prints its usage"
for bad in "-n x" "-n 0" "-c x" "-c 9999" "-e ''"; do
	eval "set -- $bad"
	expect_exit 2 "compare_busy.sh $bad exits 2" -- bash bench/compare_busy.sh "$@" -o "$TMPD/w"
	[ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -q "^compare_busy.sh: $1" "$TMPD/err"
	tap $? "  ... with one line naming $1"
	[ ! -d "$TMPD/w/A1" ]
	tap $? "  ... before any run"
done
expect_exit 2 "compare_busy.sh -z (no such option) exits 2" -- bash bench/compare_busy.sh -z
expect_grep "option" "$TMPD/err" "  ... and says so"
expect_exit 2 "compare_aa.sh x exits 2" -- sh bench/compare_aa.sh x
expect_grep "PAIRS must be a number" "$TMPD/err" "  ... and says why"
expect_exit 0 "net_shaped.sh -h exits 0" -- bash bench/net_shaped.sh -h
expect_grep "shaped" "$TMPD/out" "  ... and prints its usage"
for bad in "-r x" "-r 0" "-r 101" "-t x" "-t 0" "-t 601" "-k ''" "-z" "extra"; do
	eval "set -- $bad"
	expect_exit 2 "net_shaped.sh $bad exits 2" -- bash bench/net_shaped.sh -k "$TMPD/ns" "$@"
	[ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -q "^net_shaped.sh: $1" "$TMPD/err"
	tap $? "  ... with one line naming $1"
	[ ! -d "$TMPD/ns" ]
	tap $? "  ... before making anything"
done
expect_exit 2 "net_shaped.sh -r (no value) exits 2" -- bash bench/net_shaped.sh -k "$TMPD/ns" -r
[ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -q "^net_shaped.sh: -r: expected a value" "$TMPD/err"
tap $? "  ... with one line saying -r needs a value"
expect_exit 0 "compare_suite.sh -h exits 0" -- bash bench/compare_suite.sh -h
expect_grep "A/A" "$TMPD/out" "  ... and prints its usage"
for bad in "-n x" "-n 1" "-c 0" "-c y" "-p bogus" "-p aa,o1" "-a"; do
	eval "set -- $bad"
	o="-o $TMPD/cs"
	[ "$1" = -a ] && o=""
	# shellcheck disable=SC2086  # $o is empty or two words
	expect_exit 2 "compare_suite.sh $bad exits 2" -- bash bench/compare_suite.sh "$@" $o
	[ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -q "^compare_suite.sh: $1" "$TMPD/err"
	tap $? "  ... with one line naming $1"
	[ ! -d "$TMPD/cs" ]
	tap $? "  ... before any run"
done
expect_exit 2 "compare_suite.sh extra (an operand) exits 2" -- bash bench/compare_suite.sh extra
[ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -q "unexpected argument 'extra'" "$TMPD/err"
tap $? "  ... with one line naming it"
expect_exit 0 "tcp_peers.sh -h exits 0" -- bash bench/tcp_peers.sh -h
expect_grep "iperf3, iperf2 and nuttcp" "$TMPD/out" "  ... and prints its usage"
for bad in "-t x" "-t 0" "-r 0" "-r 51" "-a y" "-k ''" "-z" "extra"; do
	eval "set -- $bad"
	expect_exit 2 "tcp_peers.sh $bad exits 2" -- bash bench/tcp_peers.sh "$@"
	[ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -q "^tcp_peers: " "$TMPD/err"
	tap $? "  ... with one line"
done
