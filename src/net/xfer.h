/* xfer.h - one stream's transfer loop, run by one thread: what every loop
 * is told (bb_xfer_cfg, shared and read-only), what each stream holds and
 * reports (bb_xfer), and why a loop ended (bb_end).
 *
 * Loops never print and never exit.  They count bytes and I/O calls, keep
 * the first and last time, and stop on their own end condition, on the
 * controller's stop flag, or after idle_s without progress.  Blocking
 * calls wake at least every socket tick (SO_RCVTIMEO/SO_SNDTIMEO), so a
 * loop notices the stop flag and the idle limit without a poll() per call. */
#ifndef BB_NET_XFER_H
#define BB_NET_XFER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "iperf2.h"
#include "live.h"
#include "udpstat.h"

#define BB_MAX_STREAMS 64

enum bb_end {
	BB_END_RUNNING = 0,
	BB_END_DONE,         /* tx: everything written; rx: the peer closed or sent its end */
	BB_END_TIME,         /* the time limit was reached (a complete result) */
	BB_END_INTERRUPTED,  /* SIGINT or SIGTERM */
	BB_END_IDLE,         /* no progress for idle_s */
	BB_END_RESET,        /* the peer reset the connection or went away */
	BB_END_REFUSED,      /* UDP: the peer's port is unreachable */
	BB_END_ERROR,        /* another socket, file or memory error (err) */
};

/* "done", "time limit", "interrupted", "stalled", "connection reset by peer", ... */
const char *bb_end_text(enum bb_end e);
/* 1 for the ends that give a complete result. */
int bb_end_complete(enum bb_end e);

enum bb_zc { BB_ZC_NONE, BB_ZC_SENDFILE, BB_ZC_MSG };

struct bb_xfer_cfg {
	size_t buflen;        /* tx: bytes per write; UDP: per datagram */
	size_t read_size;     /* rx: bytes per read */
	uint64_t nbuf;        /* tx: buffers (datagrams) to write; 0 = until stopped */
	int src_fd;           /* tx: -1 writes the pattern in buf, else data read from it */
	int dst_fd;           /* rx: -1 discards, else data is written to it */
	int touch;            /* rx: read every byte received (-T) */
	int stamp_first;      /* rx TCP: the listener stamps arrivals (bb_tcp_stamp_arrivals):
			       * the first byte's time is its segment's arrival */
	int publish;          /* keep the live counters current (periodic reports) */
	double rate_bps;      /* tx: pace to this many bits/s; 0 = as fast as possible */
	double idle_s;        /* give up after this long without progress */
	double first_s;       /* UDP rx: wait this long for the first datagram; 0 = no limit */
	enum bb_zc zerocopy;  /* tx */
	int file_fd;          /* tx sendfile: the file to send from */
	int udp_header;       /* tx UDP: a sequence header in each datagram */
	unsigned gso_segs;    /* tx UDP: datagrams per send through UDP GSO; <= 1: none */
	int iperf2;           /* tx UDP: iperf2's datagrams and end exchange, no sentinels */
	unsigned port;        /* tx UDP iperf2: the receiver's port, for the test header */
	double time_s;        /* tx UDP iperf2: the duration announced (0: nbuf is) */
	unsigned nstreams;
	atomic_int *stop;     /* the controller stores a bb_end here to stop every loop */
};

struct bb_xfer_count {
	uint64_t bytes;       /* payload bytes moved, as the application sees them */
	uint64_t calls;       /* I/O calls that moved data */
	double t_start, t_end;   /* tx: the first write's start, the last one's return;
				  * TCP rx: accept, the end of the stream */
	double t_first, t_last;  /* TCP rx: the first and the last read that returned
				  * data (0: none did) */
};

struct bb_xfer_fault {
	enum bb_end end;
	int err;              /* errno behind RESET or ERROR */
	const char *what;     /* the call that failed: "send", "recv", ... */
};

/* Zero-copy sends: completions the kernel reported and how many of them
 * it had to copy after all (always, on loopback). */
struct bb_zc_stats {
	uint32_t next_id;
	uint64_t sent, completed, copied;
};

/* rx TCP: what the first bytes say about the peer. */
struct bb_peer_probe {
	struct bb_iperf2_probe iperf2;
	atomic_int decided;        /* 1 once iperf2.verdict is final */
	atomic_int streams;        /* streams an iperf2 peer announced, 0 if none */
};

struct bb_xfer {
	const struct bb_xfer_cfg *cfg;
	int fd;
	unsigned id;
	unsigned char *buf;        /* tx: buflen x max(1, gso_segs); rx: read_size */
	struct bb_xfer_count n;
	struct bb_xfer_fault f;
	struct bb_live live;
	struct bb_peer_probe peer;
	struct bb_zc_stats zc;
	double acked_at;           /* tx TCP: when the peer had acknowledged everything; 0 = never */
	uint64_t enobufs;          /* UDP tx: sends the kernel refused for lack of buffers */
	struct bb_iperf2_report srv;  /* UDP tx iperf2: the server's report */
	int srv_ok;                 /* 1 once srv came */
	unsigned fin_tries;         /* final datagrams sent */
	uint32_t touch_sum;
};

void bb_xfer_init(struct bb_xfer *x, const struct bb_xfer_cfg *cfg, int fd, unsigned id,
		  unsigned char *buf);

/* TCP loops (tcp_xfer.c). */
void bb_tcp_send(struct bb_xfer *x);
void bb_tcp_recv(struct bb_xfer *x);
/* Asks the kernel to stamp the segments the connections accepted from
 * listen_fd receive (the receiver's first byte's arrival); 0 or -1. */
int bb_tcp_stamp_arrivals(int listen_fd);
/* After bb_tcp_send: waits (at most idle_s) until the peer acknowledged
 * every byte, and sets acked_at; a reset meanwhile ends the stream as
 * RESET, no acknowledgement within idle_s as IDLE. */
void bb_tcp_wait_acked(struct bb_xfer *x);

/* UDP (udp_xfer.c).  One receiving socket serves every stream; datagrams
 * are told apart by the stream index in their header. */
struct bb_udp_rx {
	struct bb_xfer x;
	struct bb_udp_flow flows[BB_MAX_STREAMS];
	unsigned nstreams;         /* streams announced in headers, at most BB_MAX_STREAMS */
	uint64_t ended;            /* bit i: stream i sent its end sentinel or tally */
	uint64_t tallied;          /* bit i: stream i's tally arrived */
	uint64_t datagrams;        /* data datagrams (not sentinels) */
	uint64_t plain;            /* data datagrams without a sequence number */
	uint64_t plain_bytes;
	int going;                 /* the clock runs (classic: first sentinel seen) */
	uint64_t since_ns;         /* when the receiver began */
	struct sockaddr_storage peer;   /* the test's peer: the first datagram's source */
	socklen_t peer_len;         /* 0 until one came */
	struct sockaddr_storage src[BB_MAX_STREAMS];   /* each stream's source */
	socklen_t src_len[BB_MAX_STREAMS];
	unsigned char kind[BB_MAX_STREAMS];   /* BB_UDP_KIND_* of each stream */
	unsigned iperf2_flows;      /* streams of an iperf2 client (one per source port) */
	int fixed;                  /* peer and each stream's source were set beforehand
				     * (bb_udp_rx_fix): datagrams from elsewhere, or for
				     * another stream, are foreign */
	struct bb_udp_refused refused;
	uint64_t reports_sent;      /* server reports sent to an iperf2 client */
	int gro;                   /* UDP GRO is on */
};

enum { BB_UDP_KIND_NONE, BB_UDP_KIND_BB, BB_UDP_KIND_IPERF2 };

void bb_udp_send(struct bb_xfer *x);
void bb_udp_recv(struct bb_udp_rx *u);
/* After bb_udp_recv: why its figures contradict what a stream's sender
 * says it sent (its tally); 0 when they agree, else 1 with why. */
int bb_udp_rx_doubt(const struct bb_udp_rx *u, char *why, size_t len);
/* Before bb_udp_recv: streams 0..nstreams-1 come from peer (address and
 * port, agreed beforehand, e.g. on a control connection), and nothing
 * else is the test's. */
void bb_udp_rx_fix(struct bb_udp_rx *u, const struct sockaddr_storage *peer, socklen_t len,
		   unsigned nstreams);
/* Turns on UDP GSO (segments of seg bytes) or GRO; 0 or -1 with errno. */
int bb_udp_set_gso(int fd, size_t seg);
int bb_udp_set_gro(int fd);

/* Shared by the loops (xfer.c). */
/* The span a stream's rate is over: first to last byte where the loop
 * knows them (a TCP receiver), else t_start to t_end. */
void bb_xfer_span(const struct bb_xfer *x, double *from, double *to);
int bb_xfer_stopped(const struct bb_xfer *x);
/* Records why the loop ends; returns -1 for the caller to pass on. */
int bb_xfer_fail(struct bb_xfer *x, enum bb_end end, int err, const char *what);
/* Records a failed call by its errno (EPIPE/ECONNRESET: RESET). */
int bb_xfer_errno(struct bb_xfer *x, int err, const char *what);
/* On a timed-out call: 1 once nothing has moved for limit_s (*since is
 * the start of the quiet spell, 0 while data moves). */
int bb_xfer_idle(double *since, double limit_s);
/* Writes all of p to fd (stdout); 0 or -1 with the fault recorded. */
int bb_xfer_write_out(struct bb_xfer *x, const unsigned char *p, size_t n);
void bb_xfer_touch(struct bb_xfer *x, const unsigned char *p, size_t n);
/* Reads up to buflen bytes of the source (stdin) into buf, waking every
 * tick to check the stop flag: the count, 0 at its end, -1 on error/stop. */
ssize_t bb_xfer_read_source(struct bb_xfer *x);

#endif
