# src/applets/report/applet.mk - report reads results files back through
# the analysis engine (cJSON), and its A/B part is compare's verdicts: it
# takes compare's sources with its own.  Without cJSON the applet keeps its
# options (--help, bad options) and says what this binary lacks (absent.c).
ANALYSIS_USERS += report
ifeq ($(HAVE_CJSON),1)
report_SRC := $(filter-out %/absent.c,$(wildcard src/applets/report/*.c \
	src/applets/compare/*.c))
else
report_SRC := src/applets/report/absent.c src/applets/report/report_opts.c \
	src/applets/compare/toolopts.c
endif
$(BUILD)/src/applets/report/%.o: XCFLAGS = $(CJSON_CFLAGS)
