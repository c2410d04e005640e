/* ttcp_quick.c - the quick-suite profile of `ttcp`: the classic report's loopback
 * run (TCP, -l 8192 -n 2048, pattern source and sink, 16 MiB) repeated 21
 * times in one process: a receiving session in a thread on an ephemeral
 * 127.0.0.1 port, the transmitting session in the caller.  The
 * transmitter's result joins the run; every repetition's time is one
 * sample, the first kept but marked warm-up (20 left for compare), and the
 * receiver must count the same bytes each time.  When the process may run
 * on more than one CPU, a second result repeats it with one stream per CPU
 * (16 MiB each, at most 16 streams): what the loopback stack moves with
 * every CPU busy.  One stream often leaves CPUs idle, so it can miss what
 * takes a CPU away. */
#include "core/applet.h"
#include "ttcp_applet.h"
#include "core/error.h"
#include "core/stats.h"
#include "core/stop.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TTCP_QUICK_REPS 21  /* the first is warm-up: 20 kept; short, so cheap */
#define TTCP_QUICK_MAX_STREAMS 16

static void quick_defaults(struct ttcp_opts *o)
{
	memset(o, 0, sizeof *o);
	o->transmit = 1;
	o->family = AF_INET;
	o->host = "127.0.0.1";
	o->buflen = TTCP_DEFAULT_BUFLEN;
	o->nbuf = TTCP_DEFAULT_NBUF;
	o->align = TTCP_DEFAULT_ALIGN;
	o->sink = 1;
	o->rcvlowat = TTCP_RX_LOWAT;
	o->fmt = 'm';
	o->streams = 1;
	o->connect_timeout_s = 10;
	o->idle_timeout_s = 10;
	o->accept_timeout_s = 10;
	o->quiet_notes = 1;
}

struct quick_rx {
	struct ttcp_opts o;
	struct ttcp_session s;
	struct bb_run *scratch;
	pthread_t thread;
};

static void *quick_rx_main(void *arg)
{
	struct quick_rx *q = arg;

	ttcp_receive(&q->s);
	return NULL;
}

/* Listens on 127.0.0.1, any port; the port goes to *port. */
static int quick_listen(struct quick_rx *q, unsigned *port)
{
	struct bb_sockopt so = { SOCK_STREAM, 0, 0, NULL, NULL, TTCP_TICK_S };
	struct bb_addr a;
	int fd;

	bb_addr_numeric("127.0.0.1", 0, AF_INET, &a);
	fd = bb_sock_listen(AF_INET, &a, &so, q->s.error, sizeof q->s.error);
	a.len = sizeof a.ss;
	if (fd < 0 || getsockname(fd, (struct sockaddr *)&a.ss, &a.len) != 0)
		return -1;
	*port = bb_addr_port((struct sockaddr *)&a.ss);
	return fd;
}

static int quick_rx_start(struct quick_rx *q, const struct ttcp_opts *tx, unsigned *port)
{
	q->o = *tx;
	q->o.transmit = 0;
	q->o.host = NULL;
	q->scratch = bb_xcalloc(1, sizeof *q->scratch);
	q->scratch->cycles.fd = -1;
	ttcp_session_init(&q->s, &q->o, bb_run_add_result(q->scratch, "ttcp"));
	q->s.listen_fd = quick_listen(q, port);
	if (q->s.listen_fd < 0)
		return -1;
	return pthread_create(&q->thread, NULL, quick_rx_main, q) == 0 ? 0 : -1;
}

/* 1 if the loopback interface is down (a minimal initramfs leaves it so:
 * 127.0.0.1 binds, but nothing connects to it). */
static int lo_down(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0), down = 0;

	if (fd < 0)
		return 0;
	memset(&ifr, 0, sizeof ifr);
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0)
		down = !(ifr.ifr_flags & IFF_UP);
	close(fd);
	return down;
}

/* One transfer into r; returns 1 if complete and both ends agree. */
static int quick_once(struct bb_result *r, struct ttcp_opts *o, char *why, size_t len)
{
	struct quick_rx q;
	struct ttcp_session s;
	const struct bb_series *tt, *rt;
	int ok;

	memset(&q, 0, sizeof q);
	if (quick_rx_start(&q, o, &o->port) != 0) {
		snprintf(why, len, "loopback receiver: %s", q.s.error[0] ? q.s.error : "cannot start");
		ok = 0;
	} else {
		ttcp_session_init(&s, o, r);
		ttcp_transmit(&s);
		ttcp_session_free(&s);           /* closing the sockets ends the receiver */
		if (!r->ok)                      /* no connection came: end its accept now */
			shutdown(q.s.listen_fd, SHUT_RDWR);
		pthread_join(q.thread, NULL);
		tt = bb_result_find(r, "transfer", "total");
		rt = bb_result_find(q.s.r, "transfer", "total");
		ok = r->ok && q.s.r->ok && tt && rt &&
		     bb_kv_getnum(&tt->values, "bytes", -1) == bb_kv_getnum(&rt->values, "bytes", -2);
		if (!ok && !r->ok && lo_down())
			snprintf(why, len, "%s: the loopback interface is down (ip link set lo up)",
				 r->message ? r->message : "transmitter failed");
		else if (!ok)
			snprintf(why, len, "%s / receiver: %s", r->message, q.s.r->message);
	}
	ttcp_session_free(&q.s);
	if (q.s.listen_fd >= 0)
		close(q.s.listen_fd);
	bb_run_free(q.scratch);
	return ok;
}

static void quick_stats(struct bb_result *r)
{
	struct bb_series *t = NULL;
	struct bb_stats st;
	const double *x;
	size_t n;

	for (size_t i = 0; i < r->n; i++) {
		if (strcmp(r->series[i]->name, "transfer") != 0)
			continue;
		r->series[i]->discard = 1;       /* the warm-up repetition */
		if (!strcmp(r->series[i]->variant, "total"))
			t = r->series[i];
	}
	if (!t)
		return;
	x = bb_series_kept(t, &n);
	if (bb_stats_compute(x, n, &st) != 0 || st.min <= 0)
		return;
	bb_kv_num(&t->values, "median_real_s", st.median);
	bb_kv_num(&t->values, "best_real_s", st.min);
	bb_kv_num(&t->values, "median_bits_per_s", t->work * 8.0 / st.median);
	bb_kv_num(&t->values, "best_bits_per_s", t->work * 8.0 / st.min);
	bb_kv_num(&t->values, "median_bytes_per_s", t->work / st.median);
	bb_kv_num(&t->values, "cv", st.cv);
}

/* One result: TTCP_QUICK_REPS transfers of the given number of streams. */
static struct bb_result *quick_result(struct bb_run *run, int streams)
{
	struct bb_result *r = bb_run_add_result(run, "ttcp");
	struct ttcp_opts o;
	char why[512] = "";
	int ok = 1, done = 0;

	r->render = ttcp_render;
	r->summary = ttcp_summary;
	quick_defaults(&o);
	o.streams = streams;
	for (; done < TTCP_QUICK_REPS && ok && !bb_stopped(); done++)   /* core/stop.h */
		ok = quick_once(r, &o, why, sizeof why);
	quick_stats(r);
	bb_kv_int(&r->params, "repetitions", TTCP_QUICK_REPS);
	if (!ok) {
		bb_result_set_status(r, 0, why);
	} else if (done < TTCP_QUICK_REPS) {
		snprintf(why, sizeof why, "%d of %d transfers", done, TTCP_QUICK_REPS);
		bb_result_set_interrupted(r, why);
	}
	return r;
}

/* The CPUs this process may run on (taskset narrows them), else online. */
static int usable_cpus(int online)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	return online;
}

struct bb_result *ttcp_quick(struct bb_run *run)
{
	struct bb_result *one = quick_result(run, 1);
	int cpus = usable_cpus(run->sys.cpus_online);

	if (one->ok && cpus > 1 && !bb_stopped())
		quick_result(run, cpus < TTCP_QUICK_MAX_STREAMS ? cpus : TTCP_QUICK_MAX_STREAMS);
	return one;
}
