/* ttcp_server_absent.c - `ttcp -r --server` in a build without ttcp's
 * persistent server: the small board's set (make APPLETS=board) leaves it
 * out (a lab's server runs on a lab PC; the board keeps classic ttcp -t/-r,
 * iperf2's client and server, and the server's client, --to-server).  It
 * says so in one line and exits 1. */
#include "ttcp_server.h"
#include "core/error.h"

int ttcp_server_main(int argc, char **argv)
{
	(void)argc, (void)argv;
	bb_die("this binary was built without ttcp's persistent server (the small board's set, "
	       "make APPLETS=board): run the server from a full build; this one has classic "
	       "ttcp -t/-r and the server's client, --to-server");
}
