# src/applets/ttcp/applet.mk - ttcp's persistent server (-r --server:
# ttcp_server.c, _test, _conn, _iperf2) belongs on a lab PC: the small
# board's set (APPLETS=board) leaves it out, for ttcp_server_absent.c, unless
# TTCP_SERVER=1 (TTCP_SERVER=0 leaves it out of any build).  Its help text
# goes with it.
TTCP_SERVER ?= $(if $(filter board,$(APPLETS)),0,1)
ifeq ($(TTCP_SERVER),0)
TTCP_SERVER_ONLY := $(addprefix src/applets/ttcp/,ttcp_server.c ttcp_server_test.c \
	ttcp_server_conn.c ttcp_server_iperf2.c)
ttcp_SRC := $(filter-out $(TTCP_SERVER_ONLY),$(wildcard src/applets/ttcp/*.c)) \
	src/applets/ttcp/ttcp_server_absent.c
ttcp_SRC := $(filter-out %_host.c,$(sort $(ttcp_SRC)))
ttcp_HELP := src/applets/ttcp/help.txt src/applets/ttcp/help_client.txt
else ifneq ($(TTCP_SERVER),1)
$(error TTCP_SERVER=$(TTCP_SERVER): 1 (the persistent server is built) or 0 (it is left out))
endif
