#!/bin/sh
# scripts/add-deb-src.sh - lets `apt-get source` fetch from the archive this
# machine already installs from: writes deb-src entries mirroring its Debian
# deb entries (one-line sources.list and deb822 .sources files alike) to
#   /etc/apt/sources.list.d/boardbench-deb-src.sources
# No host is written here: every URI, suite and key comes from the machine's
# own configuration.  Run as root before `apt-get update`; running it again
# rewrites the same file.  scripts/musl-sysroot.sh needs it (apt-get source musl).
set -eu

APT=${APT_ETC:-/etc/apt}
OUT=$APT/sources.list.d/boardbench-deb-src.sources
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# deb822 stanzas whose Types include deb and whose URIs name a Debian
# archive: the same stanza with Types: deb-src.
for f in "$APT"/sources.list.d/*.sources; do
	if [ ! -f "$f" ] || [ "$f" = "$OUT" ]; then
		continue
	fi
	awk '
		function flush() {
			if (st != "" && deb && debian) print st
			st = ""; deb = 0; debian = 0
		}
		/^[ \t]*$/ { flush(); next }
		/^#/ { next }
		/^Types:/ {
			if ($0 ~ /[ \t]deb([ \t]|$)/) deb = 1
			st = st "Types: deb-src\n"; next
		}
		/^URIs:/ && /debian/ { debian = 1 }
		/^Enabled:[ \t]*no/ { deb = 0 }
		{ st = st $0 "\n" }
		END { flush() }
	' "$f" >>"$tmp"
done

# One-line entries: "deb [opts] URI suite comp..." -> deb822.
for f in "$APT"/sources.list "$APT"/sources.list.d/*.list; do
	[ -f "$f" ] || continue
	awk '
		$1 == "deb" && /debian/ {
			i = 2; opts = ""
			if ($2 ~ /^\[/) {
				while (i <= NF) { opts = opts " " $i; if ($i ~ /\]$/) { i++; break } i++ }
			}
			uri = $i; suite = $(i + 1); comps = ""
			for (j = i + 2; j <= NF; j++) comps = comps " " $j
			printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:%s\n", uri, suite, comps
			if (opts ~ /signed-by=/) {
				k = opts; sub(/.*signed-by=/, "", k); sub(/[] ].*/, "", k)
				printf "Signed-By: %s\n", k
			}
			print ""
		}
	' "$f" >>"$tmp"
done

if ! grep -q '^Types: deb-src' "$tmp"; then
	echo "add-deb-src: no Debian deb entry in $APT/sources.list{,.d}: nothing to mirror" >&2
	exit 1
fi
# Blank lines between stanzas, none doubled.
awk 'NF { print; blank = 0; next } !blank { print; blank = 1 }' "$tmp" >"$OUT.tmp"
chmod 644 "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "add-deb-src: wrote $OUT ($(grep -c '^Types: deb-src' "$OUT") entries)"
