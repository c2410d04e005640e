# src/applets/history/applet.mk - history keeps a lab's results in an
# SQLite file (libsqlite3) or, given a postgresql:// URL, on a PostgreSQL
# server (libpq), and reads them with the analysis engine (cJSON).  Each
# library is looked for with pkg-config only when history is built, and
# left out loudly when this compiler cannot link it: without SQLite or
# cJSON the applet says so when run (absent.c); without libpq it refuses
# postgresql:// databases in one line (db_nopg.c).  SQLITE=0 and PQ=0 leave
# them out, =1 insists.  Board builds (APPLETS=board, static) never link
# either.
ANALYSIS_USERS += history
SQLITE ?= auto
PQ ?= auto
HIST_DIR := src/applets/history
ifneq ($(filter history,$(BUILT_APPLETS)),)
SQLITE_CFLAGS := $(shell pkg-config --cflags sqlite3 2>/dev/null)
SQLITE_LIBS := $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null)
PQ_LIBS := $(shell pkg-config --libs libpq 2>/dev/null || echo -lpq)
HAVE_SQLITE := $(if $(filter 0,$(SQLITE)),0,$(call bb_can_link,sqlite3.h,sqlite3_libversion(),$(SQLITE_CFLAGS),$(SQLITE_LIBS)))
HAVE_PQ := $(if $(filter 0,$(PQ)),0,$(call bb_can_link,libpq-fe.h,PQlibVersion(),$(PQ_CFLAGS),$(PQ_LIBS)))
ifeq ($(SQLITE)$(HAVE_SQLITE),10)
$(error SQLITE=1, but $(CC) cannot link libsqlite3: install libsqlite3-dev (pkg-config sqlite3))
endif
ifeq ($(PQ)$(HAVE_PQ),10)
$(error PQ=1, but $(CC) cannot link libpq: install libpq-dev (pkg-config libpq))
endif
ifeq ($(HAVE_CJSON)$(HAVE_SQLITE),11)
history_SRC := $(filter-out $(HIST_DIR)/absent.c $(HIST_DIR)/db_pg.c $(HIST_DIR)/db_nopg.c,\
	$(wildcard $(HIST_DIR)/*.c))
LDLIBS += $(SQLITE_LIBS)
ifeq ($(HAVE_PQ),1)
history_SRC += $(HIST_DIR)/db_pg.c
LDLIBS += $(PQ_LIBS)
else
$(info boardbench: no libpq for $(CC): building history WITHOUT PostgreSQL (an SQLite file only))
history_SRC += $(HIST_DIR)/db_nopg.c
endif
else
HIST_LACKS := $(if $(filter 0,$(HAVE_SQLITE)),SQLite (libsqlite3-dev))$(if $(filter 00,$(HAVE_SQLITE)$(HAVE_CJSON)), and )$(if $(filter 0,$(HAVE_CJSON)),cJSON (libcjson-dev))
$(info boardbench: no $(HIST_LACKS) for $(CC)$(if $(filter 1,$(STATIC)), -static): building WITHOUT the history applet)
history_SRC := $(HIST_DIR)/absent.c $(HIST_DIR)/histopts.c
$(BUILD)/$(HIST_DIR)/absent.o: XCFLAGS = -DBB_HIST_LACKS='"$(HIST_LACKS)"'
UNIT_BIN := $(filter-out $(BUILD)/tests/applets/history/%,$(UNIT_BIN))
endif
$(BUILD)/$(HIST_DIR)/%.o: XCFLAGS = $(CJSON_CFLAGS) $(SQLITE_CFLAGS)
$(BUILD)/$(HIST_DIR)/db_pg.o: XCFLAGS = $(PQ_CFLAGS)
else
UNIT_BIN := $(filter-out $(BUILD)/tests/applets/history/%,$(UNIT_BIN))
endif
