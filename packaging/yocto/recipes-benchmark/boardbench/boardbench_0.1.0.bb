SUMMARY = "Benchmarks for embedded Linux boards in one multi-call binary"
DESCRIPTION = "boardbench characterises a Linux board: STREAM memory \
bandwidth, memory latency and cache levels, Internet checksum and memcpy \
variants, and TCP/UDP throughput (classic ttcp, iperf2 compatible). Every \
sample is kept as JSON; with cJSON, the compare and report applets say \
whether configuration B is faster than A."
SECTION = "benchmark"

# The source tree has no license file yet: until its authors choose one,
# the recipe cannot name a license or checksum its text.  Then set LICENSE
# and LIC_FILES_CHKSUM = "file://LICENSE;md5=..." (packaging/yocto/check-recipe.py
# verifies the md5 against the file).
LICENSE = "CLOSED"

# Built from the source tree this layer is part of (packaging/yocto/ in
# it): boardbench has no public repository URL yet.  Once it has, replace
# externalsrc with SRC_URI = "git://...;branch=main;protocol=https" and SRCREV.
inherit externalsrc pkgconfig bash-completion
EXTERNALSRC ?= "${@os.path.abspath(os.path.join(d.getVar('THISDIR'), '..', '..', '..', '..'))}"
EXTERNALSRC_BUILD ?= "${B}"

# compare and report read results back with cJSON; without it they are
# left out and say so when run.
PACKAGECONFIG ??= "cjson"
PACKAGECONFIG[cjson] = "CJSON=1,CJSON=0,cjson"

# The Makefile honours CC, CFLAGS and LDFLAGS; objects go to ${B}, so the
# source tree stays clean.  `make install` installs the binary built in
# do_compile as it is (OE strips it when packaging), boardbench(1) and the
# bash completion (split into ${PN}-bash-completion).
EXTRA_OEMAKE = "-C ${S} BUILD=${B} CC='${CC}' CFLAGS='${CFLAGS}' LDFLAGS='${LDFLAGS}' \
    PREFIX=${prefix} BINDIR=${bindir} MANDIR=${mandir} \
    BASHCOMPDIR=${datadir}/bash-completion/completions ${PACKAGECONFIG_CONFARGS}"

do_compile() {
    oe_runmake
}

do_install() {
    oe_runmake install DESTDIR=${D}
}
