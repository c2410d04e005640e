#!/bin/sh
# boards/ci.sh - the boards' part of CI (.ci/run calls it, one step each):
#
#   boards/ci.sh setup         dpkg learns the foreign architectures whose
#                              kernels and BusyBox the images take (as root)
#   boards/ci.sh image BOARD   make board-image BOARD=... (kernels built from
#                              source go to BOARD_CACHE, rebuilt when absent)
#   boards/ci.sh test BOARD    make board-test BOARD=...: lava-run boots it,
#                              runs facts, selftest, the quick suite and the
#                              network both ways; prints TAP
#
# Each prints how long it took, so a cold cache (kernel builds included)
# and a warm one can be told apart in the CI log.
set -u
cd "$(dirname "$0")/.." || exit 1
t0=$(date +%s)
took() { echo "boards/ci.sh $1: $(($(date +%s) - t0)) s"; }

case ${1:-} in
setup)
	if [ "$(id -u)" -ne 0 ]; then
		echo "not root: dpkg must already know arm64 (dpkg --add-architecture arm64)"
		exit 0
	fi
	for a in arm64; do
		dpkg --print-foreign-architectures | grep -qx $a || dpkg --add-architecture $a
	done
	apt-get update -q >/dev/null || exit 1
	took setup
	;;
image)
	[ $# -eq 2 ] || exit 2
	make --no-print-directory board-image BOARD="$2" || exit 1
	took "image $2"
	;;
test)
	[ $# -eq 2 ] || exit 2
	make --no-print-directory board-test BOARD="$2"
	rc=$?
	took "test $2"
	exit $rc
	;;
*)
	echo "usage: boards/ci.sh setup | image BOARD | test BOARD" >&2
	exit 2
	;;
esac
