/* ttcp_server.h - what the files of ttcp's persistent server and of the
 * boardbench client that drives it share:
 *   ttcp_server.c         options, the listening socket, the event loop
 *                         (accept, first bytes, control messages, ticks),
 *                         signals
 *   ttcp_server_conn.c    a connection before it belongs to a test: its
 *                         first bytes say classic (ttcp, iperf2, nc) or
 *                         boardbench (HELLO: the control handshake; DATA:
 *                         a data connection of an accepted test)
 *   ttcp_server_test.c    a test: its sessions (one per direction), the
 *                         bounds watched on every tick (join window,
 *                         minimum rate), its end: results exchanged, the
 *                         log line, the results file
 *   ttcp_server_ctl.c     control messages over a socket with a deadline,
 *                         and a session's RESULT (client and server)
 *   ttcp_server_iperf2.c  iperf2's -r and -d: the server connects back to
 *                         the client and sends (the test's tx direction)
 *   ttcp_server_client.c  `ttcp --to-server HOST`: the client
 *   ttcp_server_udp.c     UDP tests, what both ends share: their sockets
 *                         (ports agreed on the control connection), the
 *                         UDP figures of a RESULT, the checks of the two
 *                         ends' figures against each other
 * The transfers are the applet's own (ttcp_applet.h): each direction of a
 * test is a ttcp_session whose streams run in threads; the event loop is
 * the only thread that accepts, parses control bytes or prints. */
#ifndef BB_BENCH_TTCP_SERVER_H
#define BB_BENCH_TTCP_SERVER_H

#include "ttcp_applet.h"
#include "core/cli.h"
#include "net/cidr.h"
#include "net/ctlproto.h"
#include "net/srvrules.h"

/* Defaults of the server's bounds (documented in docs/protocol.md, "Server"). */
#define SRV_MAX_TESTS 4
#define SRV_MAX_CONNS 64          /* accepted sockets open at once, every state */
#define SRV_MAX_STREAMS 16        /* per test and direction, whatever a header says */
#define SRV_HANDSHAKE_S 5.0       /* first bytes, and each control step */
#define SRV_IDLE_S 10.0           /* a data connection without progress */
#define SRV_MIN_RATE_BPS 65536.0  /* bits/s a data connection keeps up ... */
#define SRV_RATE_WINDOW_S 10.0    /* ... over every window of this length */
#define SRV_JOIN_S 3.0            /* streams of one test come within this */
#define SRV_RESULT_S 5.0          /* the client's RESULT after the data ended */
#define SRV_READ_SIZE (128u << 10)
#define SRV_MAX_WRITE (1u << 20)  /* a REQUEST's write_len, at most */
#define SRV_KEY_MAX 1024
#define SRV_MAX_UDP_BPS 1e9       /* bits/s the UDP streams a server sends may total */
#define SRV_UDP_MIN_WRITE 24      /* a UDP write_len carries the sequence header */
#define SRV_FD_SPARE 6            /* descriptors kept free of connections: a test's own
				   * (wake pipes, UDP sockets), results files, /proc */

struct srv_opts {
	struct ttcp_opts base;        /* port, family, bind, -b, -D, -f */
	int max_tests, max_conns, max_streams;
	double handshake_s, idle_s, min_rate_bps, rate_window_s;
	double max_udp_bps;           /* --max-udp-rate */
	const char *json_dir;
	struct bb_cidr_list allow;
	unsigned char key[SRV_KEY_MAX];
	size_t keylen;                /* 0: no --key */
	struct bb_cli cli;            /* --label */
	int argc;
	char **argv;
};

enum srv_conn_state { CONN_FIRST, CONN_WAIT_AUTH, CONN_WAIT_REQUEST };

/* A connection that belongs to no test yet. */
struct srv_conn {
	int fd;
	struct bb_addr peer;
	struct bb_ip ip;
	char who[BB_ADDR_TEXT + 8];   /* "address:port" */
	enum srv_conn_state state;
	double opened, deadline;
	unsigned char buf[BB_CTL_MAX_MSG];
	size_t n;
	int eof;
	unsigned char nonce_s[BB_CTL_NONCE], nonce_c[BB_CTL_NONCE];
	struct srv_conn *next;
};

enum srv_kind { TEST_CLASSIC, TEST_IPERF2, TEST_BB };

/* One direction of a test. */
struct srv_dir {
	int used;
	int udp;                      /* a boardbench UDP test: no data connections */
	struct ttcp_opts o;
	struct ttcp_session s;
	int want;                     /* streams expected */
	int joined;                   /* streams that came */
	uint64_t joined_mask;         /* boardbench: stream indexes seen */
	uint64_t bytes_each;          /* boardbench, bytes mode: per stream */
	int shut;                     /* sending: sockets shut for writing (the end) */
	struct bb_minrate mr[BB_MAX_STREAMS];
};

struct srv_back;                  /* ttcp_server_iperf2.c */

struct srv_test {
	int id;
	enum srv_kind kind;
	char who[BB_ADDR_TEXT + 8];
	struct bb_ip ip;
	int announced;                /* iperf2: streams in the header */
	double opened, join_until, data_done, result_until;
	struct bb_run *run;
	struct srv_dir rx, tx;        /* client -> server, server -> client */
	char why[256];                /* the server's reason for incomplete */
	int emfile;                   /* accept failed for lack of fds meanwhile */
	int stopping;                 /* told to stop: its place is free for a new test */
	/* boardbench tests */
	int ctl_fd;
	unsigned char token[BB_CTL_TOKEN];
	int direction;
	int udp;                      /* proto 1 */
	unsigned udp_rx_port, udp_tx_port;   /* this server's, announced in ACCEPT */
	unsigned char cbuf[BB_CTL_MAX_MSG];
	size_t cn;
	int ctl_gone;
	struct bb_ctl_msg peer_res[2];  /* the client's RESULTs by role */
	int have_res[2];
	int sent_results;
	struct srv_back *back;        /* iperf2 -r/-d: the connect-back, else NULL */
	struct srv_test *next;
};

struct srv {
	struct srv_opts *o;
	int lfd;
	struct srv_conn *conns;
	struct srv_test *tests;
	int nconns;                   /* accepted fds open: pending, control, data */
	int ntests;
	int next_id;
	double accept_pause_until;    /* EMFILE/ENFILE, or at the cap: accept again after this */
	int fd_budget;                /* descriptors RLIMIT_NOFILE leaves for connections
				       * (INT_MAX / 2: no limit to speak of) */
	int nofile;                   /* RLIMIT_NOFILE, 0 when unlimited */
	double backoff_s;
	unsigned long emfile_count;
	atomic_int stop;              /* SIGINT/SIGTERM (ttcp_ctl.c's handler) */
};

/* Accepted connections the server keeps open at most: --max-conns, or
 * fewer when RLIMIT_NOFILE leaves less (SRV_FD_SPARE kept free; at least 1). */
int srv_conn_cap(const struct srv *v);
/* ttcp_server.c (or ttcp_server_absent.c, in a build without it) */
int ttcp_server_main(int argc, char **argv);
/* The one line of log for a test or a refused or empty connection. */
void srv_log(const char *who, const char *mode, uint64_t bytes, double seconds,
	     const char *verdict);
void srv_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ttcp_server_conn.c */
void srv_conn_add(struct srv *v, int fd, const struct bb_addr *peer);
/* Reads what came on c; returns 1 when c left the list (freed). */
int srv_conn_readable(struct srv *v, struct srv_conn *c);
/* Deadlines of pending connections. */
void srv_conns_tick(struct srv *v, double now);
void srv_conn_drop(struct srv *v, struct srv_conn *c, const char *verdict);
void srv_conns_close_all(struct srv *v);

/* ttcp_server_test.c */
struct srv_test *srv_test_new(struct srv *v, enum srv_kind kind, const char *who,
			      const struct bb_ip *ip);
/* Hands fd (first bytes pre[0..n) already read) to direction d of t as a
 * stream; 0, or -1 (fd closed, t's why says so). */
int srv_test_add_stream(struct srv *v, struct srv_test *t, struct srv_dir *d, int fd,
			const struct bb_addr *peer, double opened, const unsigned char *pre,
			size_t n);
/* A REQUEST's test: its directions prepared, waiting for DATA. */
struct srv_test *srv_test_from_request(struct srv *v, const struct bb_ctl_msg *req,
				       const char *who, const struct bb_ip *ip, int ctl_fd,
				       char *why, size_t whylen);
/* After ACCEPT: the server's UDP streams start sending (no-op for TCP). */
void srv_test_udp_go(struct srv *v, struct srv_test *t);
struct srv_test *srv_test_by_token(struct srv *v, const unsigned char *token);
struct srv_test *srv_test_group(struct srv *v, const struct bb_ip *ip, int announced,
				double now);
/* Every test's tick; the seconds until a running test next needs one
 * (at most TTCP_TICK_S), so that a --time ends on time, not on a tick. */
double srv_tests_tick(struct srv *v, double now);
/* Whether a new test may start: fewer than --max-tests run, or one whose
 * stream is below the minimum rate (in the window so far) was stopped to
 * make room. */
int srv_test_room(struct srv *v, double now);
void srv_test_ctl_readable(struct srv *v, struct srv_test *t);
/* SIGTERM: every test stops as interrupted, results written. */
void srv_tests_finish_all(struct srv *v);

/* Direction d of t from base (the server's options, or a REQUEST's). */
void srv_dir_init(struct srv *v, struct srv_test *t, struct srv_dir *d,
		  const struct ttcp_opts *base, int transmit, int want);

/* ttcp_server_iperf2.c: an iperf2 header asking for -r or -d (the test's
 * first connection fd, from peer) makes t connect back; its tick runs at
 * the start of every tick of t; while it waits or connects, t's data is
 * not finished; its log replaces t's one line by one per direction (0 when
 * t has no connect-back); free closes what is still connecting. */
void srv_iperf2_plan(struct srv *v, struct srv_test *t, const struct bb_iperf2_hdr *h, int fd,
		     const struct bb_addr *peer);
void srv_iperf2_tick(struct srv *v, struct srv_test *t, double now);
int srv_iperf2_pending(const struct srv_test *t);
int srv_iperf2_log(const struct srv_test *t);
void srv_iperf2_free(struct srv *v, struct srv_test *t);

/* ttcp_server_ctl.c */
int srv_ctl_send(int fd, const struct bb_ctl_msg *m, char *err, size_t errlen);
/* Reads one message within timeout_s; 0, or -1 with err (a REFUSE from
 * the peer is returned as 0 with m->type REFUSE). */
int srv_ctl_recv(int fd, double timeout_s, struct bb_ctl_msg *m, char *err, size_t errlen);
void srv_ctl_refuse(int fd, const char *reason);
/* A session's totals as a RESULT (role 0 receiving, 1 sending). */
void srv_result_of(const struct ttcp_session *s, int role, struct bb_ctl_msg *m);
/* Bytes, seconds (first to last byte) of a session. */
void srv_session_totals(const struct ttcp_session *s, uint64_t *bytes, double *seconds);
/* The seconds a log line gives a session: first to last byte when it is
 * complete, else from since (its test's start) to now, so that a test
 * stopped for moving too little shows the rate it kept. */
double srv_log_seconds(const struct ttcp_session *s, double seconds, double since);
/* --key FILE: its bytes (1..cap, one trailing newline dropped); 0 or -1
 * with err. */
int srv_key_load(const char *path, unsigned char *key, size_t cap, size_t *len, char *err,
		 size_t errlen);

/* ttcp_server_udp.c */
/* A UDP socket bound to the local address of the control connection ctl,
 * its port (the kernel's pick) in *port; fd, or -1 with err. */
int srv_udp_socket(int ctl, int sockbuf, unsigned *port, char *err, size_t errlen);
/* The far end of ctl with port (v4-mapped addresses made IPv4). */
int srv_udp_peer(int ctl, unsigned port, struct bb_addr *a);
/* Connects fd to the far end of ctl, port port; 0 or -1 with err. */
int srv_udp_connect(int fd, int ctl, unsigned port, char *err, size_t errlen);
/* The transfer settings of a UDP session whose options (o: transmit,
 * buflen, streams, idle timeout) are set. */
void srv_udp_config(struct ttcp_session *s, double rate_bps, uint64_t nbuf, double first_s);
/* The receiving stream on fd (taken, even on failure), which accepts
 * datagrams only from the far end of ctl, port from_port; 0 or -1. */
int srv_udp_open_rx(struct ttcp_session *s, int fd, int ctl, unsigned from_port);
/* o->streams sending streams sharing fd (taken, even on failure); 0 or -1. */
int srv_udp_open_tx(struct ttcp_session *s, int fd);
/* Starts the session's streams; 0 or -1. */
int srv_udp_go(struct ttcp_session *s);
/* A UDP session's figures into its RESULT m (after ttcp_model_finish):
 * datagrams sent, or received, lost, out of order, jitter, refused. */
void srv_udp_result(const struct ttcp_session *s, struct bb_ctl_msg *m);
/* Why a UDP receiver's figures are doubtful on their own ("" if not): a
 * stream's tally missing, datagrams shorter than asked. */
void srv_udp_doubt_local(const struct ttcp_session *s, char *why, size_t len);
/* Why they disagree with the sender's count of datagrams sent ("" if not). */
void srv_udp_doubt_count(const struct ttcp_session *s, uint64_t sent, char *why, size_t len);

/* ttcp_server_client.c */
int ttcp_client_main(int argc, char **argv);

#endif
