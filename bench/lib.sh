# bench/lib.sh - what the scripts in bench/ (stream_peers.sh, mem_peers.sh,
# compare_busy.sh, compare_suite.sh, ...) share: their messages and exit
# codes, the boardbench binary and the work directory, installing a peer
# from apt, the round-robin schedule of runs, a busy loop on one CPU,
# statistics over the runs, and the machine lines that open their markdown
# section.  Its functions keep their variables local
# (run_tool, called from run_rounds, sees the script's globals).
#
# Sourced, never run, by bash scripts that set `prog` (the name their
# messages start with) first.  It sets `top`, the top of the tree.
# Messages go to stderr: die exits 1 (a tool or a resource failed), bad
# exits 2 (a bad option value).

# shellcheck shell=bash
# prog and tool_list are the sourcing script's:
# shellcheck disable=SC2154
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

die() { echo "$prog: $*" >&2; exit 1; }
bad() { echo "$prog: $*" >&2; exit 2; }
say() { echo "$prog: $*" >&2; }

# The script's help: its opening comment, up to `set -eu`.
usage() { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

# Exits 2 unless the value of an option is a whole number from min up to
# max (no bound when there is none); noun is one of what it counts.
need_count() {  # option value noun min [max]
	case $2 in ''|*[!0-9]*) bad "$1: expected a number of ${3}s, got '$2'" ;; esac
	if [ $# -lt 5 ]; then
		[ "$2" -ge "$4" ] || bad "$1: expected at least $4 $3"
	elif [ "$2" -lt "$4" ] || [ "$2" -gt "$5" ]; then
		bad "$1: expected $4..$5 ${3}s"
	fi
}

# Sets BB (default: ./boardbench at the top of the tree, built with make
# when missing) and checks jq, which reads its --json.
need_boardbench() {
	BB=${BB:-$top/boardbench}
	command -v jq >/dev/null || die "jq is needed to read boardbench --json"
	if [ ! -x "$BB" ]; then
		say "building boardbench with make"
		make -C "$top" >&2 || die "make failed"
	fi
	[ -x "$BB" ] || die "no boardbench binary at $BB"
}

# Sets work: the directory $1 when given (kept), else a temporary one that
# goes at exit.
make_work() {
	if [ -n "$1" ]; then
		mkdir -p "$1"
		work=$(cd "$1" && pwd)
	else
		work=$(mktemp -d "${TMPDIR:-/tmp}/$prog.XXXXXX")
		trap 'rm -rf "$work"' EXIT
	fi
}

# Installs a peer's package with apt-get, as root or through sudo -n.
apt_install() {  # package
	command -v apt-get >/dev/null || return 1
	if [ "$(id -u)" -eq 0 ]; then
		apt-get install -y -q "$1" >&2
	elif command -v sudo >/dev/null; then
		sudo -n apt-get install -y -q "$1" >&2
	else
		return 1
	fi
}

# ---- the runs ----

# How busy the machine was just before we started: other work on a small
# board (or a shared VM) moves every figure, the multi-thread ones most.
cpu_busy() {  # percent of all CPUs busy over the next second
	{ head -n1 /proc/stat; sleep 1; head -n1 /proc/stat; } | awk '
		{ idle = $5 + $6; tot = 0; for (i = 2; i <= NF; i++) tot += $i
		  if (NR == 1) { i0 = idle; t0 = tot } else { i1 = idle; t1 = tot } }
		END { if (t1 > t0) printf "%.0f", 100 * (1 - (i1 - i0) / (t1 - t0)); else print "?" }'
}

# $1 rounds of every tool in the array tool_list, round-robin so that drift
# hits every tool alike, the starting tool rotating every round.  The
# script's run_tool TOOL ROUND runs one.  Notes what machine_load prints.
run_rounds() {  # rounds
	local round k tool ntools=${#tool_list[@]}

	busy_before=$(cpu_busy)
	load_before=$(cut -d' ' -f1-3 /proc/loadavg)
	t_start=$(date +%s)
	for ((round = 1; round <= $1; round++)); do
		for ((k = 0; k < ntools; k++)); do
			tool=${tool_list[$(( (k + round - 1) % ntools ))]}
			say "round $round/$1: $tool"
			run_tool "$tool" "$round"
		done
	done
	t_end=$(date +%s)
	load_after=$(cut -d' ' -f1-3 /proc/loadavg)
}

# ---- a busy loop on one CPU (a core taken away, as a shared board has) ----

busy_pid=

# Starts an endless loop pinned to CPU $1 (unpinned, and said, without
# taskset), then lets the scheduler settle around it.
busy_start() {  # cpu
	if command -v taskset >/dev/null; then
		taskset -c "$1" sh -c 'while :; do :; done' &
	else
		say "no taskset: the busy loop is not pinned"
		sh -c 'while :; do :; done' &
	fi
	busy_pid=$!
	sleep 0.5
}

busy_stop() {
	if [ -n "$busy_pid" ]; then
		kill "$busy_pid" 2>/dev/null || true
		wait "$busy_pid" 2>/dev/null || true
	fi
	busy_pid=
}

# ---- statistics over the runs ----

# The numbers on stdin, one a line -> "median min max cv n", the first four
# in the printf format $1; CV is the sample stddev / mean, in percent.
# "- - - - 0" when there are none.
summary() {  # format
	awk -v fmt="$1" '{ x[++n] = $1 }
	END {
		if (n == 0) { print "- - - - 0"; exit }
		for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j-1] > x[j]; j--) {
			v = x[j]; x[j] = x[j-1]; x[j-1] = v }
		med = n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
		for (i = 1; i <= n; i++) sum += x[i]
		mean = sum / n
		for (i = 1; i <= n; i++) ss += (x[i] - mean) ^ 2
		cv = n > 1 && mean != 0 ? 100 * sqrt(ss / (n - 1)) / mean : 0
		printf fmt " " fmt " " fmt " " fmt " %d\n", med, x[1], x[n], cv, n
	}'
}

# The median of the script's stats (same arguments), "-" when none.
median() { stats "$@" | cut -d' ' -f1; }

# a / b in the printf format $3 (default %.2f), or n/a when either is "-"
# or b is 0.
ratio() {  # a b [format]
	awk -v a="$1" -v b="$2" -v fmt="${3:-%.2f}" 'BEGIN {
		if (a == "-" || b == "-" || b == 0) print "n/a"; else printf fmt, a / b }'
}

# ---- the markdown section ----

# Its title and the machine's first lines: CPU and kernel.
machine_head() {
	local cpu

	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
	echo "### Run of $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo
	echo "Machine:"
	echo
	echo "- CPU: ${cpu:-unknown}, $(nproc) online CPUs; $(uname -m)"
	echo "- kernel: $(uname -sr) $(uname -v)"
}

# The machine's last lines: how busy it was around run_rounds.
machine_load() {  # rounds
	echo "- CPUs busy in the second before the run: ${busy_before}% of $(nproc)" \
		"(other processes; 0% is a quiet machine)"
	echo "- load average before / after: $load_before / $load_after;" \
		"$((t_end - t_start)) s for $1 rounds"
}
