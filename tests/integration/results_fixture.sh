# tests/integration/results_fixture.sh - writes small, known results files
# for the compare and report tests (sourced after lib.sh).
#
#   mkrun FILE [scale=1] [noise=1|2] [label=K=V] [governor=G] [cflags=F]
#              [threads=N] [variants="c fast"] [fast=0.8] [calib=F] [calibslow=S]
#              [boot=ID] [board=ID] [others=X]
#
# A STREAM-like run: Copy, Scale, Add, Triad for each variant, one warm-up
# sample (discard 1) and ten timed samples, each a base time x scale x a
# fixed noise factor (list 1 or 2, both with a spread of about 0.4%); the
# variant "fast" also takes x fast.  Bandwidth is work / time, so scale=1.1
# is a 9.1% regression and scale=0.95 a 5.3% improvement.  calib=F adds the
# quick suite's CPU-speed result: 12 samples of 0.35 ms x F x the noise
# list, the last 3 of them x S (calibslow, default 1).  boot= and board=
# record system.boot.id and system.board.id; others=X records what else used
# the machine during stream (params load.wall_s and load.others_cpu_per_s).
mkrun() {
	_file=$1
	shift
	scale=1 noise=1 label="cfg=x" governor=performance cflags="-O2" threads=2 variants=c fast=1
	calib=0 calibslow=1 boot="" board="" others=""
	for _kv in "$@"; do
		case $_kv in
		scale=*) scale=${_kv#*=} ;;
		noise=*) noise=${_kv#*=} ;;
		label=*) label=${_kv#*=} ;;
		governor=*) governor=${_kv#*=} ;;
		cflags=*) cflags=${_kv#*=} ;;
		threads=*) threads=${_kv#*=} ;;
		variants=*) variants=${_kv#*=} ;;
		fast=*) fast=${_kv#*=} ;;
		calib=*) calib=${_kv#*=} ;;
		calibslow=*) calibslow=${_kv#*=} ;;
		boot=*) boot=${_kv#*=} ;;
		board=*) board=${_kv#*=} ;;
		others=*) others=${_kv#*=} ;;
		*) echo "mkrun: unknown setting $_kv" >&2; return 1 ;;
		esac
	done
	awk -v scale="$scale" -v noise="$noise" -v label="$label" -v governor="$governor" \
	    -v cflags="$cflags" -v threads="$threads" -v variants="$variants" -v fast="$fast" \
	    -v calib="$calib" -v calibslow="$calibslow" -v boot="$boot" -v board="$board" \
	    -v others="$others" '
	BEGIN {
		split("1.000 1.004 0.997 1.006 0.995 1.002 0.999 1.003 0.996 1.001", n1, " ")
		split("1.002 0.998 1.005 0.996 1.001 0.994 1.003 0.999 1.004 0.997", n2, " ")
		split("Copy Scale Add Triad", names, " ")
		split("0.010 0.010 0.015 0.015", base, " ")
		split("160000000 160000000 240000000 240000000", work, " ")
		nv = split(variants, vs, " ")
		split(label, kv, "=")
		printf "{\"schema\": \"boardbench-results\", \"schema_version\": 1,\n"
		printf " \"tool\": {\"name\": \"boardbench\", \"version\": \"0.1.0\", \"git\": \"abc\", "
		printf "\"compiler\": \"gcc 12\", \"cflags\": \"%s\"},\n", cflags
		printf " \"command\": [\"stream\"], \"started_utc\": \"2026-01-01T00:00:00Z\",\n"
		printf " \"labels\": {\"%s\": \"%s\"},\n", kv[1], kv[2]
		printf " \"system\": {\"hostname\": \"board\", \"cpu_model\": \"Test CPU\", \"arch\": \"ppc\", "
		printf "\"cpus_online\": 2, \"kernel\": \"6.1\", \"governor\": \"%s\"", governor
		if (boot != "")
			printf ", \"boot.id\": \"%s\"", boot
		if (board != "")
			printf ", \"board.id\": \"%s\"", board
		printf "},\n"
		printf " \"results\": [{\"applet\": \"stream\", \"status\": \"ok\", \"message\": \"\",\n"
		printf "  \"params\": {\"array_size\": 10000000, \"threads\": %d, \"pinning\": \"no\"", threads
		if (others != "")
			printf ", \"load.wall_s\": 1.5, \"load.others_cpu_per_s\": %s", others
		printf "},\n"
		printf "  \"series\": ["
		for (v = 1; v <= nv; v++)
			for (k = 1; k <= 4; k++) {
				f = scale * (vs[v] == "fast" ? fast : 1)
				printf "%s\n   {\"name\": \"%s\", \"variant\": \"%s\", \"unit\": \"s\", ", \
				       (v > 1 || k > 1) ? "," : "", names[k], vs[v]
				printf "\"work\": %s, \"work_unit\": \"bytes\", \"discard\": 1, ", work[k]
				printf "\"samples\": [%.9f", base[k] * f * 1.5
				for (i = 1; i <= 10; i++)
					printf ", %.9f", base[k] * f * (noise == 2 ? n2[i] : n1[i])
				printf "]}"
			}
		printf "]}"
		if (calib > 0) {
			printf ",\n  {\"applet\": \"calib\", \"status\": \"ok\", \"message\": \"\", "
			printf "\"params\": {}, \"series\": [{\"name\": \"add_chain\", \"variant\": \"\", "
			printf "\"unit\": \"s\", \"work\": 1000000, \"work_unit\": \"ops\", \"discard\": 0, "
			printf "\"samples\": ["
			for (i = 1; i <= 12; i++)
				printf "%s%.9f", (i > 1 ? ", " : ""), \
				       0.00035 * calib * n1[(i - 1) % 10 + 1] * (i > 9 ? calibslow : 1)
			printf "]}]}"
		}
		printf "]}\n"
	}' >"$_file"
}
