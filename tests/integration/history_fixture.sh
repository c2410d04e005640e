# tests/integration/history_fixture.sh - results files for the history
# tests (sourced after lib.sh): a board's nightly STREAM-like runs, with a
# known step and a known fact changed at a known run.
#
#   mkhist DIR N [board=B] [first=K] [boot=R] [step_at=I] [step=F]
#                [cflags_at=I] [seed=S] [spread=X] [label=K=V] [applet=A]
#
# Writes runs K .. K+N-1 (first, default 1) as DIR/B-rNNN.json, run i
# started at 2026-03-01T00:00Z plus i times 10 minutes (every board the
# same clock, so boards can be compared).  Each run's level is 1 plus a
# uniform deviate of +-spread (default 0.01); its ten samples (after one
# discarded warm-up) spread another +-0.3% around it.  From run step_at on
# the times are multiplied by step (default 1: no change), and the
# measured kernels' flags say -O0 from run cflags_at on (default step_at).
# boot=R: R consecutive runs share a boot (system.boot.id), 0 none.  The
# deviates come from a Park-Miller generator (seed), so every awk (mawk,
# gawk, BusyBox) writes the same files.
mkhist() {
	_dir=$1 _n=$2
	shift 2
	board=b1 first=1 boot=0 step_at=100000 step=1 cflags_at= seed=7 spread=0.01 hlabel=cfg=x
	happlet=stream
	for _kv in "$@"; do
		case $_kv in
		board=*) board=${_kv#*=} ;;
		first=*) first=${_kv#*=} ;;
		boot=*) boot=${_kv#*=} ;;
		step_at=*) step_at=${_kv#*=} ;;
		step=*) step=${_kv#*=} ;;
		cflags_at=*) cflags_at=${_kv#*=} ;;
		seed=*) seed=${_kv#*=} ;;
		spread=*) spread=${_kv#*=} ;;
		label=*) hlabel=${_kv#*=} ;;
		applet=*) happlet=${_kv#*=} ;;
		*) echo "mkhist: unknown setting $_kv" >&2; return 1 ;;
		esac
	done
	mkdir -p "$_dir"
	awk -v dir="$_dir" -v n="$_n" -v board="$board" -v first="$first" -v boot="$boot" \
	    -v step_at="$step_at" -v step="$step" -v cflags_at="${cflags_at:-$step_at}" \
	    -v seed="$seed" -v spread="$spread" -v label="$hlabel" -v applet="$happlet" '
	function u() { x = (x * 16807) % 2147483647; return x / 2147483647 }
	function stamp(i,   m) {
		m = i * 10
		return sprintf("2026-03-%02dT%02d:%02d:00Z", 1 + int(m / 1440), int(m / 60) % 24, m % 60)
	}
	function run(i,   f, lvl, k, s, b) {
		f = sprintf("%s/%s-r%03d.json", dir, board, i)
		lvl = (1 + spread * (2 * u() - 1)) * (i >= step_at ? step : 1)
		split(label, kv, "=")
		printf "{\"schema\": \"boardbench-results\", \"schema_version\": 1,\n" >f
		printf " \"tool\": {\"name\": \"boardbench\", \"version\": \"0.1.0\", \"git\": \"abc\", " >f
		printf "\"compiler\": \"gcc 12\", \"cflags\": \"-O2 -g\", \"kernel_cflags\": \"%s\"},\n", \
		       (i >= cflags_at ? "-O0" : "-O3") >f
		printf " \"command\": [\"run\"], \"started_utc\": \"%s\",\n", stamp(i) >f
		printf " \"labels\": {\"%s\": \"%s\", \"night\": \"%d\"},\n", kv[1], kv[2], i >f
		printf " \"system\": {\"hostname\": \"lab-host\", \"board.id\": \"%s\", ", board >f
		if (boot > 0)
			printf "\"boot.id\": \"%s-boot%d\", \"boot.uptime_s\": %d, ", board, int((i - 1) / boot), \
			       60 * ((i - 1) % boot) + 30 >f
		printf "\"cpu_model\": \"Test CPU\", \"arch\": \"ppc\", \"cpus_online\": 2, " >f
		printf "\"kernel.release\": \"6.1.0\", \"governor\": \"performance\"},\n" >f
		printf " \"results\": [{\"applet\": \"%s\", \"status\": \"ok\", \"message\": \"\",\n", applet >f
		printf "  \"params\": {\"array_size\": 10000000, \"threads\": 2},\n  \"series\": [" >f
		for (k = 1; k <= 4; k++) {
			printf "%s\n   {\"name\": \"%s\", \"variant\": \"c\", \"unit\": \"s\", ", \
			       (k > 1 ? "," : ""), names[k] >f
			printf "\"work\": %s, \"work_unit\": \"bytes\", \"discard\": 1, ", work[k] >f
			printf "\"samples\": [%.9f", base[k] * lvl * 1.5 >f
			for (s = 1; s <= 10; s++)
				printf ", %.9f", base[k] * lvl * (1 + 0.003 * (2 * u() - 1)) >f
			printf "]}" >f
		}
		printf "]}]}\n" >f
		close(f)
	}
	BEGIN {
		x = seed
		split("Copy Scale Add Triad", names, " ")
		split("0.010 0.010 0.015 0.015", base, " ")
		split("160000000 160000000 240000000 240000000", work, " ")
		for (i = first; i < first + n; i++)
			run(i)
	}'
}

# lava_log FILE RESULTS...: the results files as a LAVA job prints them,
# between the markers, with a console prefix before each marker.
lava_log() {
	_out=$1
	shift
	: >"$_out"
	for _f in "$@"; do
		echo "[  12.345] + boardbench run --lava /tmp/lava.sh" >>"$_out"
		echo "[  13.000] BOARDBENCH-JSON-BEGIN $(basename "$_f")" >>"$_out"
		cat "$_f" >>"$_out"
		echo "BOARDBENCH-JSON-END" >>"$_out"
	done
}

# lava_yaml FILE RESULTS...: the same inside LAVA's log.yaml, each console
# line a "- {dt, lvl, msg}" entry.
lava_yaml() {
	_out=$1
	shift
	: >"$_out"
	for _f in "$@"; do
		{ echo "BOARDBENCH-JSON-BEGIN $(basename "$_f")"; cat "$_f"; echo "BOARDBENCH-JSON-END"; } |
			awk '{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); 
			       printf "- {\"dt\": \"2026-03-01T00:00:00.%06d\", \"lvl\": \"target\", \"msg\": \"%s\"}\n", NR, $0 }' >>"$_out"
	done
}
