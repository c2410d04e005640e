# src/applets/compare/applet.mk - compare reads results files back through
# the analysis engine (cJSON).  Without it the applet keeps its options
# (--help, bad options) and says what this binary lacks (absent.c).
ANALYSIS_USERS += compare
ifeq ($(HAVE_CJSON),1)
compare_SRC := $(filter-out %/absent.c,$(wildcard src/applets/compare/*.c))
else
compare_SRC := src/applets/compare/absent.c src/applets/compare/toolopts.c
endif
$(BUILD)/src/applets/compare/%.o: XCFLAGS = $(CJSON_CFLAGS)
