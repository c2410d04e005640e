# boards/debs.sh - Debian packages of another architecture, fetched and
# unpacked without installing them (apt-get download, dpkg-deb -x), for the
# board images; sourced by boards/image.sh.  The architecture must be known
# to dpkg (`dpkg --add-architecture ARCH && apt-get update`, as root); the
# .debs are kept in $CACHE/debs and unpacked once into $CACHE/root-PKG-VER.

debs_log() { echo "boards: $*" >&2; }

# deb_need_arch ARCH: fails with the command to run when dpkg lacks ARCH.
deb_need_arch() {
	[ "$1" = "$(dpkg --print-architecture)" ] && return 0
	dpkg --print-foreign-architectures | grep -qx "$1" && return 0
	debs_log "dpkg does not know architecture $1: run (as root)" \
		"dpkg --add-architecture $1 && apt-get update"
	return 1
}

# deb_fetch PKG:ARCH [VERSION]: the path of the .deb in $CACHE/debs,
# downloaded if it is not there.
deb_fetch() {
	d=$CACHE/debs
	mkdir -p "$d"
	spec=$1${2:+=$2}
	v=${2:-$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p')}
	[ -n "$v" ] && [ "$v" != "(none)" ] || { debs_log "no package $1 (apt-get update?)"; return 1; }
	name=${1%%:*} arch=${1##*:}
	f=$(ls "$d/${name}_"*"_$arch.deb" 2>/dev/null | grep -F "_$(echo "$v" | sed 's/:/%3a/')_" | head -1)
	if [ -z "$f" ]; then
		(cd "$d" && apt-get download -q "$spec" >"$d/.download.log" 2>&1) ||
			{ grep -E '^(E|Err):' "$d/.download.log" >&2; return 1; }
		f=$(ls "$d/${name}_"*"_$arch.deb" | grep -F "_$(echo "$v" | sed 's/:/%3a/')_" | head -1)
	fi
	[ -n "$f" ] && echo "$f"
}

# deb_unpack DEB: the directory it is unpacked in (once).
deb_unpack() {
	r=$CACHE/root-$(basename "$1" .deb)
	if [ ! -f "$r/.unpacked" ]; then
		rm -rf "$r" && mkdir -p "$r" && dpkg-deb -x "$1" "$r" && : >"$r/.unpacked" ||
			{ debs_log "dpkg-deb -x $1 failed"; return 1; }
	fi
	echo "$r"
}

# deb_kernel FLAVOUR ARCH: the unpacked linux-image-VERSION-FLAVOUR package
# that linux-image-FLAVOUR depends on.  Every version the archive lists is
# tried, newest first: an updates archive may list a version whose files
# its mirror does not hold yet.
deb_kernel() {
	cands=$(apt-cache show "linux-image-$1:$2" 2>/dev/null |
		awk '/^Version:/ { v = $2 }
		     /^Depends:/ { for (i = 2; i <= NF; i++) if ($i ~ /^linux-image-[0-9]/) { print v, $i; break } }' |
		sort -V -r | tr ' ' '=')
	for c in $cands; do
		ver=${c%%=*} pkg=${c#*=}
		f=$(deb_fetch "$pkg:$2" "$ver") && deb_unpack "$f" && return 0
		debs_log "$pkg:$2 $ver could not be fetched; trying an older one"
	done
	debs_log "no linux-image-$1:$2 could be fetched"
	return 1
}
