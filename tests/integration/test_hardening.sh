#!/bin/sh
# tests/integration/test_hardening.sh - the "hardening:" line of --version
# says what the binary really has: each claim is checked against the ELF
# itself (readelf: the file type for PIE, PT_INTERP, PT_GNU_RELRO,
# BIND_NOW; the symbols a stack protector or _FORTIFY_SOURCE leave), and
# against the hardening flags --version names; a results file's
# tool.hardening says the same.
. tests/integration/lib.sh

expect_exit 0 "--version exits 0" -- $BB --version
cp "$TMPD/out" "$TMPD/version"
line=$(sed -n 's/^hardening: //p' "$TMPD/version")
echo "$line" | grep -Eq '^stack-protector=(no|yes|strong|all|explicit) fortify=(no|[1-3]) pie=(yes|no) relro=(no|partial|full) link=(static|dynamic)$'
tap $? "--version has one 'hardening:' line of five facts ($line)"

fact() {  # NAME: its value in the hardening line ("missing" when absent)
	_v=$(echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p")
	echo "${_v:-missing}"
}
hflags=$(sed -n 's/^hardening cflags (all but src\/kernels, added): *//p' "$TMPD/version")
cflags=$(sed -n 's/^cflags: //p' "$TMPD/version")
grep -q '^hardening cflags (all but src/kernels, added):' "$TMPD/version"
tap $? "--version names the hardening flags and that the kernels do not get them"

if ! command -v readelf >/dev/null 2>&1; then
	tap 0 "hardening line against the ELF: no readelf # SKIP"
	exit 0
fi
bin=$BB
[ -n "${BB_ABS:-}" ] && bin=$BB_ABS
readelf -h "$bin" >"$TMPD/h" 2>/dev/null && readelf -lW "$bin" >"$TMPD/l" 2>/dev/null &&
	readelf -dW "$bin" >"$TMPD/d" 2>/dev/null
if [ $? -ne 0 ] || ! grep -q 'Type:' "$TMPD/h"; then
	tap 0 "hardening line against the ELF: $bin is not an ELF readelf reads # SKIP"
	exit 0
fi

# pie: the ELF type
if grep -Eq 'Type: *DYN' "$TMPD/h"; then want=yes; else want=no; fi
[ "$(fact pie)" = "$want" ]
tap $? "pie=$(fact pie): the ELF type says $want"

# link: a program interpreter or none
if grep -q 'INTERP' "$TMPD/l"; then want=dynamic; else want=static; fi
[ "$(fact link)" = "$want" ]
tap $? "link=$(fact link): PT_INTERP says $want"

# relro: GNU_RELRO, BIND_NOW; musl applies neither in a static binary
if ! grep -q 'GNU_RELRO' "$TMPD/l"; then
	want=no
elif [ "$(fact link)" = static ] && echo "$cflags" | grep -q 'musl\.specs'; then
	want=no
elif grep -Eq 'BIND_NOW|FLAGS_1.*NOW' "$TMPD/d" || ! grep -q 'DYNAMIC' "$TMPD/l"; then
	want=full
else
	want=partial
fi
[ "$(fact relro)" = "$want" ]
tap $? "relro=$(fact relro): the program headers and dynamic section say $want"

# The symbols: the dynamic ones of a dynamic binary, else its symbol table
# (a stripped static binary has none to show).
if [ "$(fact link)" = dynamic ]; then
	readelf --dyn-syms -W "$bin" >"$TMPD/syms" 2>/dev/null
else
	readelf -sW "$bin" >"$TMPD/syms" 2>/dev/null
fi
if ! grep -Eq ' (FUNC|NOTYPE) ' "$TMPD/syms"; then
	tap 0 "stack-protector and fortify against the symbols: none to read # SKIP"
	tap 0 "fortify against the symbols: none to read # SKIP"
else
	if [ "$(fact stack-protector)" != no ]; then
		[ "$(fact stack-protector)" != missing ] && grep -q '__stack_chk_fail' "$TMPD/syms"
		tap $? "stack-protector=$(fact stack-protector): the binary calls __stack_chk_fail"
	else
		tap 0 "stack-protector=no: nothing to look for # SKIP"
	fi
	if [ "$(fact fortify)" != no ]; then
		[ "$(fact fortify)" != missing ] && grep -Eq '__[a-z0-9_]+_chk' "$TMPD/syms"
		tap $? "fortify=$(fact fortify): the binary calls checked functions (__*_chk)"
	elif [ "$(fact link)" = dynamic ]; then
		# a static libc holds them whatever; a dynamic binary only imports its own
		! grep -Eq '__(memcpy|memset|snprintf|vsnprintf|fprintf|printf|strcpy|read)_chk' "$TMPD/syms"
		tap $? "fortify=no: the binary imports no checked function"
	else
		tap 0 "fortify=no in a static binary: nothing to look for # SKIP"
	fi
fi

# The flags agree: what the hardening flags (then CFLAGS, which win) asked.
last_ssp=$(echo "$hflags $cflags" | tr ' ' '\n' | grep -E '^-f(no-)?stack-protector' | tail -1)
case $last_ssp in
-fstack-protector-strong) want=strong ;;
-fstack-protector-all) want=all ;;
-fstack-protector-explicit) want=explicit ;;
-fstack-protector) want=yes ;;
*) want=no ;;
esac
if [ -z "$last_ssp" ]; then
	tap 0 "stack-protector: no flag given, the compiler's default # SKIP"
else
	[ "$(fact stack-protector)" = "$want" ]
	tap $? "stack-protector=$(fact stack-protector) as $last_ssp asked"
fi
if echo "$hflags" | grep -q -- '-D_FORTIFY_SOURCE=2' && ! echo "$cflags" | grep -q 'musl\.specs'; then
	[ "$(fact fortify)" = 2 ]
	tap $? "fortify=$(fact fortify) as -D_FORTIFY_SOURCE=2 asked (glibc)"
fi

# A results file keeps the same line.
expect_exit 0 "stream --json exits 0" -- $BB stream -s 64K -N 2 --json "$TMPD/s.json"
if command -v jq >/dev/null 2>&1; then
	[ -n "$line" ] && [ "$(jq -r .tool.hardening "$TMPD/s.json")" = "$line" ]
	tap $? "the JSON's tool.hardening is the --version line"
else
	[ -n "$line" ] && grep -qF "\"hardening\": \"$line\"" "$TMPD/s.json"
	tap $? "the JSON's tool.hardening is the --version line"
fi
