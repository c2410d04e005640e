/* ttcp_applet.h - what the files of the `ttcp` applet share:
 *   ttcp.c         options (classic letters and long extensions), checks,
 *                  main
 *   ttcp_quick.c   the quick profile (the `run` suite's loopback test)
 *   ttcp_tx.c      the transmitter: connects every stream and sends
 *   ttcp_rx.c      the receiver: listens, accepts (more streams when an
 *                  iperf2 peer announces them) and receives
 *   ttcp_ctl.c     the controller both share: worker threads, the stop
 *                  flag, the time limit, periodic reports, CPU snapshots
 *   ttcp_model.c   the results model: parameters, totals, per stream,
 *                  intervals, CPU, TCP_INFO, UDP loss and jitter
 *   ttcp_render.c  classic ttcp's lines and the extensions, from the model;
 *                  the progress notes on stderr
 *   ttcp_signal.c  SIGINT/SIGTERM: note the signal, stop the session
 *   ttcp_server*.c the persistent server (ttcp_server.h)
 * Calls go one way, down this order: ttcp.c and ttcp_quick.c -> tx/rx ->
 * ctl -> model -> render and signal, which call no other file here.
 * The sockets and loops themselves live in src/net/. */
#ifndef BB_BENCH_TTCP_APPLET_H
#define BB_BENCH_TTCP_APPLET_H

#include "core/cli.h"
#include "core/results.h"
#include "net/cpuacct.h"
#include "net/sock.h"
#include "net/tcpinfo.h"
#include "net/xfer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The names of ttcp's series, spelt once for the code that makes them
 * (ttcp_model.c) and the rules that read them back (ttcp_host.c): a
 * transfer per stream ("stream0", ..., or "udp0" for a UDP receiver's
 * senders) and their "total"; the --interval reports interval_bytes, _rtt,
 * _retrans, _cwnd and _end, per stream and in total. */
#define TTCP_TRANSFER "transfer"
#define TTCP_TOTAL "total"
#define TTCP_STREAM "stream" /* the word, not the applet */
#define TTCP_INTERVAL "interval_"

#define TTCP_DEFAULT_PORT 5001
#define TTCP_DEFAULT_BUFLEN 8192
#define TTCP_DEFAULT_NBUF 2048
#define TTCP_DEFAULT_ALIGN 16384
#define TTCP_MAX_BUFLEN (64u << 20)
#define TTCP_MAX_ALIGN (1u << 20)
#define TTCP_UDP_MAX_DATAGRAM 65507
#define TTCP_RX_MIN_READ (256u << 10)   /* the receiver's default read size, at least */
#define TTCP_RX_BIG_READ (128u << 10)   /* ... when the writes are larger than this */
#define TTCP_RX_LOWAT (16u << 10)       /* with -s, recv() waits for this much */
#define TTCP_TICK_S 0.25                /* sockets wake this often to check stop/idle */

struct ttcp_opts {
	int transmit;                 /* -t (else -r) */
	int udp;                      /* -u */
	int family;                   /* AF_UNSPEC, AF_INET (-4), AF_INET6 (-6) */
	const char *host;             /* -t: the receiver */
	unsigned port;                /* -p */
	size_t buflen;                /* -l */
	uint64_t nbuf;                /* -n */
	size_t align, offset;         /* -A, -O */
	int sockbuf;                  /* -b, 0 = system default */
	int nodelay, sink, verbose, touch;  /* -D -s -v -T */
	char fmt;                     /* -f */
	double time_s;                /* --time, 0 = -n buffers */
	int streams;                  /* --streams */
	double interval_s;            /* --interval, 0 = none */
	const char *bind;             /* --bind ADDR[%DEV] */
	enum bb_zc zerocopy;          /* --zerocopy */
	double rate_bps;              /* --rate, 0 = unlimited */
	int gso, gro;                 /* --gso, --gro */
	int iperf2;                   /* --iperf2: UDP sender speaks iperf2's datagrams */
	double connect_timeout_s;     /* --connect-timeout */
	double idle_timeout_s;        /* --idle-timeout */
	double accept_timeout_s;      /* --accept-timeout, 0 = wait for ever */
	size_t read_size;             /* --read-size, 0 = max(-l, 256 KiB) */
	size_t rcvlowat;              /* --rcvlowat (SO_RCVLOWAT), receiver TCP */
	int rcvlowat_given;
	int quiet_notes;              /* no "ttcp-t: socket" lines (quick profile) */
};

struct ttcp_session;

struct ttcp_stream {
	struct ttcp_session *session;
	struct bb_xfer *x;            /* &own, or &udp->x for the UDP receiver */
	struct bb_xfer own;
	struct bb_udp_rx *udp;        /* the UDP receiver's state, else NULL */
	pthread_t thread;
	int started;
	atomic_int finished;
	int wake_fd;                  /* the controller's wake pipe */
	unsigned char *mem;           /* the allocation behind x.buf */
	struct bb_tcpinfo ti;         /* at the end */
	struct bb_sockbuf sockbuf;    /* read back once connected or accepted */
	char peer[BB_ADDR_TEXT];
	uint64_t iv_bytes;            /* bytes at the previous interval */
	uint32_t iv_retrans;
	/* The TCP sender's stream connects in its own thread, then writes at
	 * once: nothing else runs between connect and its first write. */
	struct bb_addr dest;
	int connecting;               /* the controller has not seen it connect yet */
	double connected_at;          /* set before connected */
	atomic_int connected;
	char error[200];              /* why its connect failed */
};

struct ttcp_session {
	const struct ttcp_opts *o;
	struct bb_xfer_cfg cfg;
	atomic_int stop;
	struct ttcp_stream *st[BB_MAX_STREAMS];
	int n;
	int file_fd;                  /* the sendfile source, -1 if none */
	double t0;                    /* first connect or accept (0: none yet) */
	double next_iv;               /* when the next periodic report is due */
	int iv_count;
	struct bb_cpu_snap cpu0, cpu1;
	struct bb_result *r;
	FILE *out;                    /* the report: stdout, or stderr when data goes there */
	double stopped_at;            /* when the stop flag was set, 0 = not yet */
	int wake[2];                  /* a finishing worker writes a byte: the controller wakes */
	char error[256];              /* a failure before or outside the streams */
	struct bb_addr local;         /* quick profile: the listening address */
	int listen_fd;                /* quick profile: opened by the caller, else -1 */
	int sockbuf_warned;           /* the capped-buffer warning was printed */
};

/* ttcp_opts.c: the one option table of ttcp's three modes.  The codes
 * of its long-only options; getopt_long's next option of a mode (opt as
 * getopt_long gives it, '?' or ':' for a bad one, -1 at the end), or one
 * line and exit 2 for an option of another mode. */
enum ttcp_opt {
	TO_TIME = BB_OPT_FIRST_APPLET, TO_STREAMS, TO_INTERVAL, TO_BIND, TO_ZEROCOPY, TO_RATE,
	TO_GSO, TO_GRO, TO_CONNECT_TIMEOUT, TO_IDLE_TIMEOUT, TO_ACCEPT_TIMEOUT, TO_READ_SIZE,
	TO_RCVLOWAT, TO_IPERF2,
	TO_SERVER, TO_MAX_TESTS, TO_MAX_CONNS, TO_MAX_STREAMS, TO_HANDSHAKE, TO_MIN_RATE,
	TO_RATE_WINDOW, TO_MAX_UDP_RATE, TO_ALLOW, TO_KEY, TO_JSON_DIR,
	TO_TO_SERVER, TO_BIDIR,
};
#define TTCP_MODE_CLASSIC 1u
#define TTCP_MODE_SERVER 2u
#define TTCP_MODE_CLIENT 4u
int ttcp_getopt(int argc, char **argv, unsigned mode);

/* ttcp_quick.c: the quick profile, a loopback transfer into run. */
struct bb_result *ttcp_quick(struct bb_run *run);

/* The receiver's read size when --read-size is not given (ttcp_rx.c). */
size_t ttcp_default_read_size(size_t buflen, int udp);

/* ttcp_tx.c / ttcp_rx.c: run a session; 0 when complete, 1 otherwise. */
int ttcp_transmit(struct ttcp_session *s);
int ttcp_receive(struct ttcp_session *s);

/* ttcp_signal.c: SIGINT/SIGTERM stop session s (a second one ends the
 * program); ttcp_interrupted() says whether one came. */
void ttcp_signals_install(struct ttcp_session *s);
int ttcp_interrupted(void);

/* ttcp_ctl.c */
void ttcp_session_init(struct ttcp_session *s, const struct ttcp_opts *o, struct bb_result *r);
void ttcp_session_free(struct ttcp_session *s);
/* A stream with a buffer of bufsize bytes placed at -A/-O; NULL + error. */
struct ttcp_stream *ttcp_stream_new(struct ttcp_session *s, int fd, size_t bufsize);
/* The same for the UDP receiver: its one stream carries a bb_udp_rx. */
struct ttcp_stream *ttcp_stream_new_udp_rx(struct ttcp_session *s, int fd, size_t bufsize);
int ttcp_stream_start(struct ttcp_session *s, struct ttcp_stream *t, void *(*fn)(void *));
/* The session's clock and CPU snapshot, then every stream's thread on fn. */
int ttcp_session_start(struct ttcp_session *s, void *(*fn)(void *));
void *ttcp_run_tcp_send(void *arg);
/* Connects to t->dest within --connect-timeout, then ttcp_run_tcp_send. */
void *ttcp_run_tcp_connect_send(void *arg);
void *ttcp_run_tcp_recv(void *arg);
void *ttcp_run_udp_send(void *arg);
void *ttcp_run_udp_recv(void *arg);
int ttcp_all_finished(const struct ttcp_session *s);
/* Signals, the time limit and due periodic reports; returns how long the
 * caller may wait before calling again. */
double ttcp_ctl_step(struct ttcp_session *s);
/* Waits up to seconds, less if a worker finishes or a signal arrives. */
void ttcp_ctl_sleep(struct ttcp_session *s, double seconds);
void ttcp_join_all(struct ttcp_session *s);

/* ttcp_model.c */
void ttcp_model_params(struct ttcp_session *s);
/* Stream t's socket is connected (tx) or accepted (rx): its buffers read
 * back (one warning on stderr for the first one capped), and for the first
 * stream the interface it uses, into the params. */
void ttcp_model_socket(struct ttcp_session *s, struct ttcp_stream *t);
/* The two halves of it: the buffers (and the warning), the interface. */
void ttcp_model_sockbuf(struct ttcp_session *s, struct ttcp_stream *t);
void ttcp_model_interface(struct ttcp_session *s, struct ttcp_stream *t);
void ttcp_model_interval(struct ttcp_session *s, double from, double to);
void ttcp_model_finish(struct ttcp_session *s);
int ttcp_model_complete(const struct bb_result *r);

/* ttcp_render.c */
void ttcp_render_header(FILE *f, const struct bb_result *r);
void ttcp_render_report(FILE *f, const struct bb_result *r);
void ttcp_render(FILE *f, const struct bb_result *r);
void ttcp_render_interval(FILE *f, const struct bb_result *r, size_t i);
void ttcp_summary(FILE *f, const struct bb_result *r);
const char *ttcp_param_str(const struct bb_result *r, const char *key);
/* "ttcp-t: " or "ttcp-r: " and the note on stderr (none with quiet_notes). */
void ttcp_note(const struct ttcp_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
