# boardbench - GNU Makefile.
#
#   make                      build ./boardbench (needs only a C compiler and libc)
#   make CROSS_COMPILE=powerpc-linux-gnu- STATIC=1 BUILD=build-ppc
#   make TARGET=armel         static cross build with Debian's compiler for a board
#                             (docs/TARGETS.md lists TARGETs; BUILD=build-armel)
#   make LIBC=musl TARGET=armel   the small static binary, against musl (BUILD=
#                             build-musl-armel; the sysroot is made on first use by
#                             scripts/musl-sysroot.sh in MUSL=$(MUSL_CACHE)/armel)
#   make check                unit (cmocka) and integration tests; ends "N passed, N failed"
#   make check SAN=1          the same under AddressSanitizer + UBSan (in build-san/)
#   make unit | integration   only the cmocka tests, or only those that run the binary
#   make run                  build and run the quick suite
#   make install PREFIX=/usr DESTDIR=/tmp/stage   binary, man page, bash completion
#   make install-links        also stream, lat, ... as symlinks to boardbench
#   make install-strip | uninstall | dist (boardbench-VERSION.tar.gz in BUILD)
#
#   make LIBC=musl TARGET=armhf APPLETS=board   only some applets (the
#                             set "board": stream csum mem ttcp selftest)
#   make HARDEN="ssp relro"   only some of the hardening (default: ssp fortify
#                             pie relro; musl: ssp); HARDEN= for none
#
# Honours CC, CROSS_COMPILE, CFLAGS, LDFLAGS, PREFIX, DESTDIR and STATIC=1 as
# U-Boot, the kernel and BusyBox do.  KERNEL_OPT is added for the measured
# kernels in src/kernels/ (default -O3, as STREAM is usually built); the
# hardening flags are added for everything else, before CFLAGS and LDFLAGS
# (which therefore win).

# ---- TARGET and LIBC: Debian's cross compilers, glibc or musl ----
# TARGET names a board class: its compiler triple and CPU flags (i586 is
# built for the Pentium/Geode class: no cmov), a static link and its own
# BUILD.  LIBC=musl links against a musl sysroot (MUSL; made by
# scripts/musl-sysroot.sh with the target's kernel headers inside, or any
# sysroot with a musl.specs given as MUSL=DIR) and builds small by default
# (-Os and unused sections dropped; the measured kernels keep KERNEL_OPT).
# It links with -z norelro and a 64-byte common page: musl applies no RELRO
# in a static binary, and the RELRO segment's end aligned to a page padded
# the file by up to a page (64 KiB on aarch64, mips and powerpc: 41 KB of
# zeros in the aarch64 binary); the data now follows the code in the file.
BB_TARGETS := x86_64 i586 i686 armel armhf aarch64 mips mipsel riscv64 powerpc
bb_triple_x86_64 := x86_64-linux-gnu
bb_triple_i586 := i686-linux-gnu
bb_triple_i686 := i686-linux-gnu
bb_triple_armel := arm-linux-gnueabi
bb_triple_armhf := arm-linux-gnueabihf
bb_triple_aarch64 := aarch64-linux-gnu
bb_triple_mips := mips-linux-gnu
bb_triple_mipsel := mipsel-linux-gnu
bb_triple_riscv64 := riscv64-linux-gnu
bb_triple_powerpc := powerpc-linux-gnu
bb_cflags_i586 := -march=i586
TARGET ?=
LIBC ?= glibc
BB_TARGET_FLAGS :=
MUSL_SPECS :=
ifneq ($(TARGET),)
ifeq ($(filter $(TARGET),$(BB_TARGETS)),)
$(error TARGET=$(TARGET) is not one of: $(BB_TARGETS))
endif
CROSS_COMPILE ?= $(bb_triple_$(TARGET))-
STATIC ?= 1
BB_TARGET_FLAGS += $(bb_cflags_$(TARGET))
endif
ifeq ($(LIBC),musl)
MUSL_CACHE ?= $(HOME)/.cache/boardbench-musl
ifeq ($(TARGET),)
ifeq ($(MUSL),)
$(error LIBC=musl needs TARGET=NAME ($(BB_TARGETS)), or MUSL=DIR and CROSS_COMPILE)
endif
endif
MUSL ?= $(MUSL_CACHE)/$(TARGET)
MUSL_SPECS := $(MUSL)/musl.specs
override STATIC := 1
CJSON ?= 0
CFLAGS ?= -Os -g -fno-pie -ffunction-sections -fdata-sections \
	-fno-asynchronous-unwind-tables -fno-unwind-tables
LDFLAGS ?= -Wl,--gc-sections -Wl,-z,noseparate-code -Wl,-z,norelro -Wl,-z,common-page-size=64
BB_TARGET_FLAGS += -specs $(MUSL_SPECS)
BUILD ?= build-musl-$(or $(TARGET),$(notdir $(MUSL)))
else ifneq ($(LIBC),glibc)
$(error LIBC=$(LIBC): glibc (the compiler's own libc) or musl)
endif
ifneq ($(TARGET),)
BUILD ?= build-$(TARGET)
endif

CROSS_COMPILE ?=
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
CFLAGS ?= -O2 -g
LDFLAGS ?=
KERNEL_OPT ?= -O3
PREFIX ?= /usr/local
DESTDIR ?=
WERROR ?=

ifeq ($(SAN),1)
BUILD ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
BUILD ?= build
SANFLAGS :=
endif
ifeq ($(BUILD),build)
BIN ?= boardbench
else
BIN ?= $(BUILD)/boardbench
endif

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
	-Wno-format-nonliteral
ifeq ($(WERROR),1)
WARN += -Werror
endif
BB_CFLAGS := -std=c11 -D_GNU_SOURCE -pthread $(WARN) $(SANFLAGS) -Isrc -I$(BUILD)
BB_LDFLAGS := -pthread $(SANFLAGS)

# ---- hardening, as Debian's dpkg-buildflags has it ----
# HARDEN lists what is added to every object but the measured kernels:
#   ssp      -fstack-protector-strong
#   fortify  -D_FORTIFY_SOURCE=2, when CFLAGS optimise (glibc needs an -O) and
#            do not set _FORTIFY_SOURCE themselves (theirs is used then)
#   pie      -fPIE and -pie; a static build links -static-pie where the C
#            library has rcrt1.o (glibc on x86-64, i686, AArch64 here), else
#            it stays a static non-PIE binary
#   relro    -Wl,-z,relro,-z,now: full RELRO
# The kernels in src/kernels/ get none of the compiler flags: they are the
# code being measured, and are compiled exactly as before (CFLAGS plus
# KERNEL_OPT) so that their numbers stay comparable with earlier builds and
# with other tools' builds of the same loops; a stack canary or a checked
# memcpy inside a timed loop would be measured too.  Only -fPIE reaches
# them when the link is PIE (the link needs it; Debian's gcc uses it
# anyway).  These flags come before CFLAGS and LDFLAGS, so a user's own
# win (-fno-stack-protector, -U_FORTIFY_SOURCE, -fno-pie with -no-pie);
# HARDEN= drops them all, HARDEN="ssp relro" keeps two.  What a binary has
# is read from the binary itself: `boardbench --version`, "hardening:".
# musl builds default to HARDEN=ssp: musl has no _FORTIFY_SOURCE and applies
# no RELRO in a static binary (so those would only cost bytes), and a
# static PIE costs the small binary more than it can spare (docs/TARGETS.md
# has the measured costs).
ifeq ($(LIBC),musl)
HARDEN ?= ssp
else
HARDEN ?= ssp fortify pie relro
endif
ifneq ($(filter-out ssp fortify pie relro,$(HARDEN)),)
$(error HARDEN=$(HARDEN): a list of ssp, fortify, pie and relro)
endif
HARDEN_CFLAGS :=
HARDEN_LDFLAGS :=
HARDEN_KERNEL_CFLAGS :=
BB_STATIC_PIE :=
ifneq ($(filter ssp,$(HARDEN)),)
HARDEN_CFLAGS += -fstack-protector-strong
endif
ifneq ($(filter fortify,$(HARDEN)),)
ifeq ($(filter -D_FORTIFY_SOURCE% -U_FORTIFY_SOURCE%,$(CFLAGS)),)
ifneq ($(filter-out -O0,$(lastword $(filter -O%,$(CFLAGS)))),)
HARDEN_CFLAGS += -D_FORTIFY_SOURCE=2
endif
endif
endif
ifneq ($(filter pie,$(HARDEN)),)
ifeq ($(LIBC),musl)
$(error HARDEN=pie: this musl build has no static PIE (docs/TARGETS.md); leave pie out)
endif
HARDEN_CFLAGS += -fPIE
HARDEN_KERNEL_CFLAGS += -fPIE
ifeq ($(STATIC),1)
BB_STATIC_PIE := $(if $(filter /%,$(shell $(CC) $(BB_TARGET_FLAGS) -print-file-name=rcrt1.o 2>/dev/null)),1)
endif
ifneq ($(BB_STATIC_PIE),1)
HARDEN_LDFLAGS += -pie
endif
endif
ifneq ($(filter relro,$(HARDEN)),)
HARDEN_LDFLAGS += -Wl,-z,relro,-z,now
endif

ifeq ($(STATIC),1)
BB_LDFLAGS += $(if $(BB_STATIC_PIE),-static-pie,-static)
# A static glibc binary takes numeric addresses only (src/net/sock.c).
BB_CFLAGS += -DBB_STATIC_LINK
endif
BB_CFLAGS += $(BB_TARGET_FLAGS)
BB_LDFLAGS += $(BB_TARGET_FLAGS)
LDLIBS := -lm

# The revision --version prints comes from this source tree only: its
# VERSION file (written into tarballs by `make dist`), else `git describe`
# when this directory is the top of a git work tree, else "unknown" -- a
# tarball unpacked inside another repository never takes that one's commit.
GIT_TOP := $(shell git rev-parse --show-toplevel 2>/dev/null)
IN_GIT_TOP := $(if $(GIT_TOP),$(filter $(realpath $(CURDIR)),$(realpath $(GIT_TOP))))
ifneq ($(wildcard VERSION),)
GIT_REV := $(shell head -n 1 VERSION | tr -cd 'A-Za-z0-9._+~-')
else ifneq ($(IN_GIT_TOP),)
GIT_REV := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
else
GIT_REV := unknown
endif
# The sources' date (SOURCE_DATE_EPOCH, else the commit's, else 0: unknown):
# run warns when the clock is before it (a board without an RTC).
BB_SOURCE_EPOCH := $(or $(SOURCE_DATE_EPOCH),$(if $(IN_GIT_TOP),$(shell git log -1 --format=%ct 2>/dev/null)),0)
RELEASE := $(shell sed -n 's/.*define BB_VERSION "\(.*\)"$$/\1/p' src/core/version.h)

# ---- the applets ----
# The one list, src/applets/applets.def, says which applets there are and
# which belong to the small board's set.  APPLETS (empty: every one) keeps
# only those listed, as BusyBox's applet selection does; "board" stands for
# its set, what a small board needs to run the classic reports'
# measurements (docs/TARGETS.md, "Size goals").  An applet's sources are the
# .c files of its folder src/applets/NAME/, but absent.c (what stands in for
# an applet built without its library) and NAME_host.c (its host-side
# knowledge, built with the analysis engine, src/analysis); the folder's
# applet.mk, where there is one, says otherwise (compare, report, history).
APPLET_LIST := src/applets/applets.def
BB_ALL_APPLETS := $(shell sed -n 's/^APPLET(\([a-z0-9_]*\), *[a-z]*)$$/\1/p' $(APPLET_LIST))
BB_APPLET_SET_board := $(shell sed -n 's/^APPLET(\([a-z0-9_]*\), *board)$$/\1/p' $(APPLET_LIST))
APPLETS ?=
BB_APPLETS := $(sort $(foreach a,$(APPLETS),$(or $(BB_APPLET_SET_$(a)),$(a))))
ifneq ($(filter-out $(BB_ALL_APPLETS),$(BB_APPLETS)),)
$(error APPLETS=$(APPLETS): not applets: $(filter-out $(BB_ALL_APPLETS),$(BB_APPLETS)) (applets: $(BB_ALL_APPLETS); sets: board))
endif
BUILT_APPLETS := $(if $(BB_APPLETS),$(filter $(BB_APPLETS),$(BB_ALL_APPLETS)),$(BB_ALL_APPLETS))
# RESOLVER=0 leaves the C library's name lookup out (11 KB of a static
# musl x86-64 binary): hosts are then numeric addresses or names in
# /etc/hosts, read by boardbench itself; any other name is refused with a
# one-line error that says so (net/sock.c).
RESOLVER ?= 1
ifeq ($(RESOLVER),0)
BB_CFLAGS += -DBB_NO_RESOLVER
else ifneq ($(RESOLVER),1)
$(error RESOLVER=$(RESOLVER): 1 (names are looked up) or 0 (numeric addresses only))
endif
# The classic tools' names that install-links makes (those built).
LINK_APPLETS := $(filter $(BUILT_APPLETS),stream lat csum mem ttcp)

# The --help texts of the applets built, src/applets/NAME/help.txt (and
# help_WHAT.txt: ttcp's server and client), go into the binary as one gzip
# stream: $(BUILD)/help_data.c, made on the build host by
# scripts/help-data.sh (sh, gzip, od) and remade when a text, the list or
# the script changes; core/help.c inflates it for --help.
HELP_FILES = $(foreach a,$(BUILT_APPLETS),$(or $($(a)_HELP),$(wildcard src/applets/$(a)/help.txt \
	src/applets/$(a)/help_*.txt)))
HELP_OBJ := $(BUILD)/help_data.o

CORE_SRC := $(wildcard src/core/*.c)
KERNEL_SRC := $(wildcard src/kernels/*.c)
NET_SRC := $(wildcard src/net/*.c)
FACTS_SRC := $(wildcard src/facts/*.c)
LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(CORE_SRC) $(KERNEL_SRC) $(NET_SRC) $(FACTS_SRC)) $(HELP_OBJ)

UNIT_SRC := $(wildcard tests/unit/test_*.c) \
	$(foreach a,$(BUILT_APPLETS),$(wildcard tests/unit/applets/$(a)/test_*.c))
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
ifeq ($(filter x86_64-% i386-% i486-% i586-% i686-%,$(shell $(CC) -dumpmachine)),)
UNIT_BIN := $(filter-out $(BUILD)/tests/test_x86_cpu,$(UNIT_BIN))
endif
CMOCKA_CFLAGS := $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)
# cJSON reads emitted JSON back in unit tests only; ./boardbench never links it.
CJSON_CFLAGS := $(shell pkg-config --cflags libcjson 2>/dev/null)
CJSON_LIBS := $(shell pkg-config --libs libcjson 2>/dev/null || echo -lcjson)

# The analysis engine (src/analysis: the results reader, metric keys,
# statistics, change points, SVG) reads results back with cJSON, for the
# applets that read results files (their applet.mk adds them to
# ANALYSIS_USERS).  Built when this compiler can link libcjson, left out
# loudly when it cannot (static and cross builds usually cannot): those
# applets then say so when they are run.  CJSON=0 leaves it out, CJSON=1
# insists.
CJSON ?= auto
HASH := \#
ifeq ($(CJSON),0)
HAVE_CJSON := 0
else
HAVE_CJSON := $(shell printf '$(HASH)include <cjson/cJSON.h>\nint main(void) { return !cJSON_Parse("1"); }\n' | \
	$(CC) $(CJSON_CFLAGS) -x c -o /dev/null - $(BB_LDFLAGS) $(LDFLAGS) $(CJSON_LIBS) >/dev/null 2>&1 && \
	echo 1 || echo 0)
endif
ifeq ($(CJSON)$(HAVE_CJSON),10)
$(error CJSON=1, but $(CC) cannot link libcjson: install libcjson-dev (pkg-config libcjson))
endif
bb_can_link = $(shell printf '$(HASH)include <$(1)>\nint main(void) { return !$(2); }\n' | \
	$(CC) $(3) -x c -o /dev/null - $(BB_LDFLAGS) $(LDFLAGS) $(4) >/dev/null 2>&1 && echo 1 || echo 0)
ANALYSIS_USERS :=
include $(wildcard src/applets/*/applet.mk)
ANALYSIS := $(if $(filter $(ANALYSIS_USERS),$(BUILT_APPLETS)),$(HAVE_CJSON),0)
ifeq ($(ANALYSIS),1)
ANALYSIS_SRC := $(wildcard src/analysis/*.c)
HOST_SRC := $(foreach a,$(BUILT_APPLETS),$(wildcard src/applets/$(a)/$(a)_host.c))
LDLIBS += $(CJSON_LIBS)
else
ifneq ($(filter $(ANALYSIS_USERS),$(BUILT_APPLETS)),)
$(info boardbench: no cJSON (libcjson) for $(CC)$(if $(filter 1,$(STATIC)), -static): building WITHOUT the applets: $(filter $(ANALYSIS_USERS),$(BUILT_APPLETS)))
endif
UNIT_BIN := $(filter-out $(patsubst %,$(BUILD)/tests/test_%,abstats reader metrics differ changepoint),$(UNIT_BIN))
endif
$(BUILD)/src/analysis/%.o: XCFLAGS = $(CJSON_CFLAGS)

applet_sources = $(or $($(1)_SRC),$(filter-out %/absent.c %_absent.c %_host.c,$(wildcard src/applets/$(1)/*.c)))
APPLET_SRC := $(sort $(foreach a,$(BUILT_APPLETS),$(call applet_sources,$(a))))
APP_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(APPLET_SRC) $(HOST_SRC) $(ANALYSIS_SRC) \
	src/applets/list.c src/main.c)

.PHONY: all clean check unit integration install install-bin install-man install-completion \
	install-links install-strip uninstall dist run golden fuzz fuzz-ctl sim history-sim FORCE

all: $(BIN)

$(BIN): $(APP_OBJ) $(LIB_OBJ)
	$(CC) $(BB_LDFLAGS) $(HARDEN_LDFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c $(BUILD)/buildinfo.h
	@mkdir -p $(dir $@)
	$(CC) $(BB_CFLAGS) $(HARDEN_CFLAGS) $(CFLAGS) $(XCFLAGS) -MMD -MP -c -o $@ $<

# Remade on every build (the list of texts follows APPLETS), replaced only
# when it changes.
$(BUILD)/help_data.c: scripts/help-data.sh $(HELP_FILES) FORCE
	@mkdir -p $(BUILD)
	@sh scripts/help-data.sh $@ $(HELP_FILES)

$(HELP_OBJ): $(BUILD)/help_data.c
	$(CC) $(BB_CFLAGS) $(HARDEN_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# The measured kernels: no hardening flags (see HARDEN above).
$(BUILD)/src/kernels/%.o: XCFLAGS = $(KERNEL_OPT)
$(BUILD)/src/kernels/%.o: HARDEN_CFLAGS = $(HARDEN_KERNEL_CFLAGS)
# The checkers and the variant tables beside them are not measured: they
# take CFLAGS' optimisation as the rest of the program does (-Os in the
# small musl build), not KERNEL_OPT.
$(BUILD)/src/kernels/%_check.o $(BUILD)/src/kernels/%_table.o: XCFLAGS =

# Which applets this build has, and which of them bring host-side knowledge
# (NAME_host.c), for the applet tables (src/applets/list.c);
# regenerated on every build, replaced only when it changes.
$(BUILD)/applets_built.h: FORCE
	@mkdir -p $(BUILD)
	@{ $(foreach a,$(BB_ALL_APPLETS),echo '#define BB_BUILT_$(a) $(if $(filter $(a),$(BUILT_APPLETS)),1,0)';) \
	   $(foreach a,$(BB_ALL_APPLETS),echo '#define BB_HOST_$(a) $(if $(filter src/applets/$(a)/$(a)_host.c,$(HOST_SRC)),1,0)';) \
	   echo '#define BB_ANALYSIS $(ANALYSIS)'; } >$@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@
	@rm -f $@.tmp
$(BUILD)/src/applets/list.o: $(BUILD)/applets_built.h

# Regenerated on every build, replaced only when it changes.
define buildinfo
#define BB_GIT_REV "$(GIT_REV)"
#define BB_SOURCE_EPOCH $(BB_SOURCE_EPOCH)
#define BB_CFLAGS_STR "$(subst ',,$(subst ",,$(strip $(BB_CFLAGS) $(CFLAGS))))"
#define BB_HARDEN_CFLAGS_STR "$(subst ',,$(subst ",,$(strip $(HARDEN_CFLAGS))))"
#define BB_KERNEL_CFLAGS_STR "$(subst ',,$(subst ",,$(strip $(HARDEN_KERNEL_CFLAGS) $(KERNEL_OPT))))"
#define BB_LDFLAGS_STR "$(subst ',,$(subst ",,$(strip $(BB_LDFLAGS) $(HARDEN_LDFLAGS) $(LDFLAGS))))"
endef
export buildinfo
$(BUILD)/buildinfo.h: FORCE
	@mkdir -p $(BUILD)
	@printf '%s\n' "$$buildinfo" > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@
	@rm -f $@.tmp

# A musl sysroot is made before anything is compiled against it.
ifneq ($(MUSL_SPECS),)
$(BUILD)/buildinfo.h: $(MUSL_SPECS)
$(MUSL_SPECS):
	@[ -n "$(TARGET)" ] || { echo "no $(MUSL_SPECS): make it with scripts/musl-sysroot.sh" >&2; exit 1; }
	scripts/musl-sysroot.sh $(TARGET) $(MUSL)
endif

# Unit tests link what they use from one archive of every object but main.o,
# any applet's included (tests/unit/applets/NAME/ for an applet's own).
LIBBB := $(BUILD)/libboardbench.a
$(LIBBB): $(filter-out $(BUILD)/src/main.o,$(APP_OBJ)) $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/tests/%: tests/unit/%.c $(LIBBB)
	@mkdir -p $(dir $@)
	$(CC) $(BB_CFLAGS) $(HARDEN_CFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) $(CJSON_CFLAGS) \
		-Wno-missing-prototypes $(BB_LDFLAGS) $(HARDEN_LDFLAGS) $(LDFLAGS) -o $@ $< $(LIBBB) \
		$(CMOCKA_LIBS) $(CJSON_LIBS) $(LDLIBS)

check: $(BIN) $(UNIT_BIN)
	@BB=$(BIN) UNIT_BINS="$(UNIT_BIN)" sh tests/run.sh

unit: $(UNIT_BIN)
	@UNIT_BINS="$(UNIT_BIN)" INTEGRATION=0 sh tests/run.sh

integration: $(BIN)
	@BB=$(BIN) UNIT_BINS= sh tests/run.sh

# A libFuzzer harness for the results reader (clang; docs/json-schema.md says
# how long it has run):  make fuzz && build-fuzz/fuzz_reader -max_len=65536 \
#   -max_total_time=600 -dict=tests/fuzz/results.dict build-fuzz/corpus tests/fuzz/corpus
FUZZ_CC ?= clang
FUZZ_SRC := tests/fuzz/fuzz_reader.c src/analysis/reader.c src/analysis/jsonscan.c \
	src/analysis/metrics.c src/analysis/abstats.c src/core/error.c src/core/stats.c \
	src/applets/list.c $(wildcard src/applets/*/*_host.c)
fuzz: build-fuzz/fuzz_reader
# The harness has every applet's host-side knowledge and no applet.
build-fuzz/applets_built.h: $(APPLET_LIST)
	@mkdir -p build-fuzz
	@{ $(foreach a,$(BB_ALL_APPLETS),echo '#define BB_BUILT_$(a) 0'; \
	   echo '#define BB_HOST_$(a) $(if $(wildcard src/applets/$(a)/$(a)_host.c),1,0)';) \
	   echo '#define BB_ANALYSIS 1'; } >$@
build-fuzz/fuzz_reader: $(FUZZ_SRC) $(wildcard src/analysis/*.h) build-fuzz/applets_built.h
	@mkdir -p build-fuzz/corpus
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Isrc -Ibuild-fuzz $(CJSON_CFLAGS) -o $@ $(FUZZ_SRC) \
		$(CJSON_LIBS) -lm

# The ttcp control protocol's parser (docs/protocol.md says how long it ran):
#   make fuzz-ctl && build-fuzz/fuzz_ctlproto -max_total_time=600 \
#     build-fuzz/ctl_corpus tests/fuzz/ctl_corpus
FUZZ_CTL_SRC := tests/fuzz/fuzz_ctlproto.c src/net/ctlproto.c src/core/sha256.c
fuzz-ctl: build-fuzz/fuzz_ctlproto
build-fuzz/fuzz_ctlproto: $(FUZZ_CTL_SRC) src/net/ctlproto.h src/core/sha256.h
	@mkdir -p build-fuzz/ctl_corpus
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Isrc -o $@ $(FUZZ_CTL_SRC)

run: $(BIN)
	./$(BIN) run

# tests/golden/: what a user sees (--list, --help, compare and report on known
# files), recorded again after a change that means to change it
# (tests/integration/test_golden.sh compares it; docs/DESIGN.md).
golden: $(BIN)
	rm -rf tests/golden
	BB=$(BIN) sh scripts/golden.sh -q tests/golden

# compare's statistics over synthetic whole suites (docs/benchmarks/compare.md):
#   make sim SIM_ARGS="-n 1000 -c 0.02"
SIM_OBJ := $(patsubst %,$(BUILD)/src/%.o,analysis/abstats analysis/multi analysis/power core/error core/stats)
sim: $(BUILD)/bench/compare_sim
	$(BUILD)/bench/compare_sim $(SIM_ARGS)
$(BUILD)/bench/compare_sim: bench/compare_sim.c bench/sim_suite.h $(SIM_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(BB_CFLAGS) $(CFLAGS) -o $@ bench/compare_sim.c $(SIM_OBJ) $(BB_LDFLAGS) $(LDFLAGS) -lm

# The history's change points over synthetic labs (docs/benchmarks/history.md):
#   make history-sim HIST_SIM_ARGS="-b 0.053 -w 0.025 -n 60 -L 50"
HIST_SIM_OBJ := $(patsubst %,$(BUILD)/src/%.o,analysis/changepoint analysis/abstats analysis/power \
	core/error core/stats)
history-sim: $(BUILD)/bench/history_sim
	$(BUILD)/bench/history_sim $(HIST_SIM_ARGS)
$(BUILD)/bench/history_sim: bench/history_sim.c bench/sim_suite.h $(HIST_SIM_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(BB_CFLAGS) $(CFLAGS) -o $@ bench/history_sim.c $(HIST_SIM_OBJ) $(BB_LDFLAGS) $(LDFLAGS) -lm

# ---- install, uninstall, dist ----
# `make install` installs the binary that is built, as it is: it builds it
# only when there is none, so that `make CFLAGS=... && make install` (or a
# `sudo make install`) never relinks it with other flags.  The applets'
# generic names (stream, ttcp, mem ...) go in only with install-links.
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL ?= install
STRIP ?= $(CROSS_COMPILE)strip
MANPAGES := $(wildcard docs/boardbench*.1)
BASHCOMP := packaging/bash-completion/boardbench
INSTALL_BIN_DEP := $(if $(wildcard $(BIN)),,$(BIN))

install: install-bin install-man install-completion

install-bin: $(INSTALL_BIN_DEP)
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/boardbench

install-man:
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 0644 $(MANPAGES) $(DESTDIR)$(MANDIR)/man1/

install-completion:
	$(INSTALL) -d $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 0644 $(BASHCOMP) $(DESTDIR)$(BASHCOMPDIR)/boardbench

install-links: install-bin
	for a in $(LINK_APPLETS); do ln -sfn boardbench $(DESTDIR)$(BINDIR)/$$a; done

install-strip: install
	$(STRIP) $(DESTDIR)$(BINDIR)/boardbench

# Applet names are removed only where they are links to boardbench.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/boardbench $(DESTDIR)$(BASHCOMPDIR)/boardbench
	rm -f $(patsubst docs/%,$(DESTDIR)$(MANDIR)/man1/%,$(MANPAGES))
	for a in $(LINK_APPLETS); do l=$(DESTDIR)$(BINDIR)/$$a; \
		if [ -L $$l ] && [ "$$(readlink $$l)" = boardbench ]; then rm -f $$l; fi; done

# A release tarball of HEAD with a VERSION file naming its revision.
DIST := boardbench-$(RELEASE)
dist:
	@[ -n "$(IN_GIT_TOP)" ] || { echo "make dist: needs the top of a git work tree" >&2; exit 1; }
	rm -rf $(BUILD)/dist && mkdir -p $(BUILD)/dist
	git archive --format=tar --prefix=$(DIST)/ HEAD | tar -x -C $(BUILD)/dist
	git describe --always --abbrev=12 HEAD > $(BUILD)/dist/$(DIST)/VERSION
	tar -C $(BUILD)/dist -czf $(BUILD)/$(DIST).tar.gz --owner=0 --group=0 --sort=name $(DIST)
	rm -rf $(BUILD)/dist
	@echo "wrote $(BUILD)/$(DIST).tar.gz"

-include boards/boards.mk

clean:
	rm -rf build build-* boardbench

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
