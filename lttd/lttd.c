// SPDX-License-Identifier: GPL-2.0
/*
 * lttd.c - the LTT daemon: copies a trace's relayfs channels to disk.
 *
 * main() only wires things: options, the walk of the channel tree, opening
 * (relay.c) and the outputs, the workers (copy.c), the exit report.
 * Everything that can be refused is refused before any file is created.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <popt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltt/ltt-abi.h>

#include "lttd.h"
#include "ltttrace-version.h"
#include "ltt/tool-stdout.h"

static const char help_text[] =
"Usage: lttd -t TRACE_DIR -d OUT_DIR [-a] [-N THREADS] [-f | -n] [-D]\n"
"   or: lttd -t OUT_DIR -c TRACE_DIR [-d] [-a] [-N THREADS] [-f | -n]\n"
"Copy the relayfs channels of a running LTT trace into a trace directory.\n"
"\n"
"  -t, --trace DIR        the trace's relayfs directory, e.g.\n"
"                         /mnt/relayfs/ltt/trace1 (channel files cpu_N,\n"
"                         control/NAME_N, flight-NAME_N)\n"
"  -d, --output DIR       where to write; the channel tree is mirrored under\n"
"                         it (created if needed)\n"
"  -a, --append           append to existing tracefiles instead of refusing\n"
"                         them (they must hold whole sub-buffers of the\n"
"                         channel's size)\n"
"  -N, --threads N        worker threads, 1 to 256 (default 1); each owns a\n"
"                         fixed share of the channels\n"
"  -f, --flight-only      copy only the flight-* channels: dump them once,\n"
"                         now, and exit\n"
"  -n, --normal-only      copy only the normal channels\n"
"  -D, --daemon           detach once every channel is open; messages and\n"
"                         the exit report then go to syslog\n"
"  -h, --help             this text\n"
"      --version          print the version and exit\n"
"\n"
"The second form is the command line of the 2006 lttd, as the 2006\n"
"lttctl -d runs it: with -c (--channels) present, -c names the relayfs\n"
"directory, -t the output directory and -d (no argument) detaches, like\n"
"-D.\n"
"\n"
"lttd copies every complete sub-buffer the kernel hands over, most urgent\n"
"(buffer full) first, and stops when every channel has hung up (the trace\n"
"was stopped and its buffers drained) or on SIGTERM or SIGINT, after\n"
"copying what is ready.  Flight channels are dumped once, at the end.  A\n"
"sub-buffer the writer overwrote while it was copied (flight mode: EIO\n"
"from RELAYFS_PUT_SUBBUF) is cut off the file again.  At exit lttd reports,\n"
"per channel, the sub-buffers written, the sub-buffers lost because the\n"
"writer overwrote them while they were copied (flight mode), and the\n"
"kernel's own loss counters as found in the channel.buffer_stats events of\n"
"the data written.\n"
"\n"
"Exit status: 0 if every channel was copied without error, 1 on an error\n"
"(a missing directory, not a relayfs channel, an output error), 2 on bad\n"
"usage.\n";

struct opts {
	char *trace;
	char *out;
	int append;
	int threads;
	int flight_only;
	int normal_only;
	int daemon;
};

struct chanlist {
	struct lttd_channel **v;
	size_t n, cap;
};

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "lttd: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'lttd --help' for more information.\n");
	exit(2);
}

/*
 * The 2006 command line (-t OUT -c CHANNELS [-d]) is told from ours
 * (-t CHANNELS -d OUT) by its -c, which ours does not have.
 */
static int era_command_line(int argc, const char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return 0;
		if (strcmp(argv[i], "-c") == 0 ||
		    strncmp(argv[i], "--channels", 10) == 0 ||
		    (argv[i][0] == '-' && argv[i][1] == 'c'))
			return 1;
	}
	return 0;
}

static void parse_options(int argc, const char **argv, struct opts *o)
{
	int help = 0, version = 0;
	char *threads = NULL;
	struct poptOption table[] = {
		{ "trace", 't', POPT_ARG_STRING, &o->trace, 0, NULL, NULL },
		{ "output", 'd', POPT_ARG_STRING, &o->out, 0, NULL, NULL },
		{ "append", 'a', POPT_ARG_NONE, &o->append, 0, NULL, NULL },
		{ "threads", 'N', POPT_ARG_STRING, &threads, 0, NULL, NULL },
		{ "flight-only", 'f', POPT_ARG_NONE, &o->flight_only, 0,
		  NULL, NULL },
		{ "normal-only", 'n', POPT_ARG_NONE, &o->normal_only, 0,
		  NULL, NULL },
		{ "daemon", 'D', POPT_ARG_NONE, &o->daemon, 0, NULL, NULL },
		{ "help", 'h', POPT_ARG_NONE, &help, 0, NULL, NULL },
		{ "version", 0, POPT_ARG_NONE, &version, 0, NULL, NULL },
		POPT_TABLEEND
	};
	/* the 2006 one: -t is the output, -c the channels, -d detaches */
	struct poptOption era_table[] = {
		{ "trace", 't', POPT_ARG_STRING, &o->out, 0, NULL, NULL },
		{ "channels", 'c', POPT_ARG_STRING, &o->trace, 0, NULL, NULL },
		{ "daemon", 'd', POPT_ARG_NONE, &o->daemon, 0, NULL, NULL },
		{ "append", 'a', POPT_ARG_NONE, &o->append, 0, NULL, NULL },
		{ "threads", 'N', POPT_ARG_STRING, &threads, 0, NULL, NULL },
		{ "flight-only", 'f', POPT_ARG_NONE, &o->flight_only, 0,
		  NULL, NULL },
		{ "normal-only", 'n', POPT_ARG_NONE, &o->normal_only, 0,
		  NULL, NULL },
		{ "help", 'h', POPT_ARG_NONE, &help, 0, NULL, NULL },
		POPT_TABLEEND
	};
	int era = era_command_line(argc, argv);
	poptContext pc = poptGetContext("lttd", argc, argv,
					era ? era_table : table, 0);
	int rc;

	while ((rc = poptGetNextOpt(pc)) > 0)
		;
	if (rc < -1) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s: %s",
			 poptBadOption(pc, POPT_BADOPTION_NOALIAS),
			 poptStrerror(rc));
		poptFreeContext(pc);
		usage_error("%s", msg);
	}
	if (help) {
		fputs(help_text, stdout);
		poptFreeContext(pc);
		exit(0);
	}
	if (version) {
		printf("lttd (Linux Trace Toolkit) %s\n", LTTTRACE_VERSION_STRING);
		poptFreeContext(pc);
		exit(0);
	}
	if (poptPeekArg(pc)) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s", poptPeekArg(pc));
		poptFreeContext(pc);
		usage_error("unexpected argument '%s'", msg);
	}
	poptFreeContext(pc);
	if (era && !o->trace)
		usage_error("%s", "missing -c TRACE_DIR (the relayfs directory "
			    "of the trace)");
	if (era && !o->out)
		usage_error("%s", "missing -t OUT_DIR (where to write)");
	if (!o->trace)
		usage_error("%s", "missing -t TRACE_DIR (the relayfs directory "
			    "of the trace)");
	if (!o->out)
		usage_error("%s", "missing -d OUT_DIR (where to write)");
	o->threads = 1;
	if (threads) {
		char *end;
		long v = strtol(threads, &end, 10);

		if (*threads < '0' || *threads > '9' || *end || v < 1 ||
		    v > 256)
			usage_error("-N '%s': want a number of threads from 1 "
				    "to 256", threads);
		o->threads = (int)v;
		free(threads);
	}
	if (o->flight_only && o->normal_only)
		usage_error("%s", "-f and -n exclude each other");
}

/* ---- the channel tree --------------------------------------------------- */

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);

	if (!s) {
		lttd_err("out of memory");
		exit(1);
	}
	memcpy(s, a, la);
	s[la] = '/';
	memcpy(s + la + 1, b, lb + 1);
	return s;
}

static void add_channel(struct chanlist *l, const char *rel)
{
	struct lttd_channel *ch = calloc(1, sizeof(*ch));
	const char *base = strrchr(rel, '/');

	if (!ch || (l->n == l->cap &&
		    !(l->v = realloc(l->v, (l->cap = l->cap * 2 + 8) *
				     sizeof(*l->v))))) {
		lttd_err("out of memory");
		exit(1);
	}
	base = base ? base + 1 : rel;
	ch->path = strdup(rel);
	ch->fd = ch->out_fd = -1;
	ch->flight = strncmp(base, LTT_FLIGHT_PREFIX,
			     strlen(LTT_FLIGHT_PREFIX)) == 0;
	ch->facilities = strncmp(base, LTT_FACILITIES_CHANNEL,
				 strlen(LTT_FACILITIES_CHANNEL)) == 0 ||
			 strncmp(base, LTT_FLIGHT_PREFIX LTT_FACILITIES_CHANNEL,
				 strlen(LTT_FLIGHT_PREFIX
					LTT_FACILITIES_CHANNEL)) == 0;
	l->v[l->n++] = ch;
}

/* Collects every file under root/rel, sorted, in at most 8 levels. */
static int walk(const char *root, const char *rel, int depth,
		const struct opts *o, struct chanlist *l)
{
	char *dir = rel ? join(root, rel) : strdup(root);
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	if (n < 0) {
		lttd_err("%s: %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	int ret = 0;

	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (ret || name[0] == '.') {
			free(names[i]);
			continue;
		}
		char *full = join(dir, name);
		char *sub = rel ? join(rel, name) : strdup(name);
		struct stat st;

		if (lstat(full, &st) < 0) {
			lttd_err("%s: %s", full, strerror(errno));
			ret = -1;
		} else if (S_ISDIR(st.st_mode)) {
			if (depth >= 8) {
				lttd_err("%s: too deep for a channel tree",
					 full);
				ret = -1;
			} else {
				ret = walk(root, sub, depth + 1, o, l);
			}
		} else if (!S_ISLNK(st.st_mode)) {
			int flight = strncmp(name, LTT_FLIGHT_PREFIX,
					     strlen(LTT_FLIGHT_PREFIX)) == 0;

			if (!(o->flight_only && !flight) &&
			    !(o->normal_only && flight))
				add_channel(l, sub);
		}
		free(full);
		free(sub);
		free(names[i]);
	}
	free(names);
	free(dir);
	return ret;
}

/* mkdir -p for the directory part of out/rel (and out itself). */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf)) {
		lttd_err("%s: path too long", path);
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
			lttd_err("%s: cannot create the directory: %s", buf,
				 strerror(errno));
			return -1;
		}
		struct stat st;

		if (stat(buf, &st) < 0 || !S_ISDIR(st.st_mode)) {
			lttd_err("%s: exists and is not a directory", buf);
			return -1;
		}
		if (c == '\0')
			return 0;
		*p = c;
	}
}

static int open_outputs(const struct opts *o, struct chanlist *l)
{
	if (make_dirs(o->out) < 0)
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		struct lttd_channel *ch = l->v[i];
		char *file = join(o->out, ch->path);
		char *slash = strrchr(file, '/');
		int r = 0;

		*slash = '\0';
		r = make_dirs(file);
		*slash = '/';
		if (r == 0)
			r = lttd_open_output(ch, file, o->append);
		free(file);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* ---- running ------------------------------------------------------------- */

static void on_signal(int sig)
{
	lttd_request_stop();
}

static void *worker_main(void *arg)
{
	struct lttd_worker *w = arg;

	lttd_worker_run(w);
	return NULL;
}

/* -D: daemon(3) (fork, the parent exits 0 once the channels are open,
 * setsid, chdir /, stdio on /dev/null), before any worker thread exists;
 * from then on messages go to syslog. */
static int daemonize(void)
{
	if (daemon(0, 0) < 0) {
		lttd_err("cannot detach: %s", strerror(errno));
		return -1;
	}
	lttd_log_to_syslog();
	return 0;
}

static void report(const struct chanlist *l)
{
	int fid = lttd_stats_channel_facility();
	uint64_t written = 0, pushed = 0, lost = 0, corrupted = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct lttd_channel *ch = l->v[i];
		const struct lttd_bufstats *b =
			fid >= 0 && ch->bstats ? &ch->bstats[fid] : NULL;
		char kernel[128];

		if (fid < 0)
			snprintf(kernel, sizeof(kernel), "unknown (no "
				 "channel facility_load was copied)");
		else if (b && b->seen)
			snprintf(kernel, sizeof(kernel), "%u events lost, %u "
				 "corrupted sub-buffers", b->events_lost,
				 b->corrupted);
		else
			snprintf(kernel, sizeof(kernel), "no loss (no "
				 "buffer_stats event)");
		lttd_info("%s: sub-buffers written %llu, lost to the writer "
			  "(EIO) %llu; kernel: %s%s", ch->path,
			  (unsigned long long)ch->written,
			  (unsigned long long)ch->pushed, kernel,
			  ch->failed ? "; FAILED" : "");
		written += ch->written;
		pushed += ch->pushed;
		if (b && b->seen) {
			lost += b->events_lost;
			corrupted += b->corrupted;
		}
	}
	if (fid < 0)
		lttd_info("total: %zu channels, sub-buffers written %llu, lost "
			  "to the writer (EIO) %llu; kernel: unknown", l->n,
			  (unsigned long long)written,
			  (unsigned long long)pushed);
	else
		lttd_info("total: %zu channels, sub-buffers written %llu, lost "
			  "to the writer (EIO) %llu; kernel: %llu events lost, "
			  "%llu corrupted sub-buffers", l->n,
			  (unsigned long long)written,
			  (unsigned long long)pushed, (unsigned long long)lost,
			  (unsigned long long)corrupted);
}

/*
 * Kept in static storage: everything stays reachable whatever the exit path,
 * so that LeakSanitizer (SANITIZE=1) reports only real leaks.
 */
static struct opts g_opts;
static struct chanlist g_chans;
static struct lttd_worker *g_workers;
static pthread_t *g_tids;

int main(int argc, char **argv)
{
	struct stat st;
	int status = 0;

	ltt_check_stdout_at_exit("lttd");	/* --help, --version too */
	parse_options(argc, (const char **)argv, &g_opts);

	if (stat(g_opts.trace, &st) < 0) {
		lttd_err("%s: %s", g_opts.trace, strerror(errno));
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		lttd_err("%s: not a directory (want the trace's relayfs "
			 "directory)", g_opts.trace);
		return 1;
	}
	if (walk(g_opts.trace, NULL, 0, &g_opts, &g_chans) < 0)
		return 1;
	if (g_chans.n == 0) {
		lttd_err("%s: no %schannel found", g_opts.trace,
			 g_opts.flight_only ? "flight " :
			 g_opts.normal_only ? "normal " : "");
		return 1;
	}
	for (size_t i = 0; i < g_chans.n; i++) {
		char *file = join(g_opts.trace, g_chans.v[i]->path);
		int r = lttd_relay_open(g_chans.v[i], file);

		free(file);
		if (r < 0)
			return 1;
	}
	if (open_outputs(&g_opts, &g_chans) < 0)
		return 1;

	if (lttd_stop_init() < 0) {
		lttd_err("cannot create the stop pipe: %s", strerror(errno));
		return 1;
	}
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* a file size limit: an EFBIG write error, not a dead daemon */
	signal(SIGXFSZ, SIG_IGN);

	if (g_opts.daemon && daemonize() < 0)
		return 1;

	size_t nw = (size_t)g_opts.threads;

	if (nw > g_chans.n)
		nw = g_chans.n;
	size_t nw_all = nw;

	g_workers = calloc(nw, sizeof(*g_workers));
	g_tids = calloc(nw, sizeof(*g_tids));

	if (!g_workers || !g_tids) {
		lttd_err("out of memory");
		return 1;
	}
	for (size_t k = 0; k < nw; k++) {
		g_workers[k].ops = &lttd_relay_ops;
		g_workers[k].flight_only = g_opts.flight_only;
		g_workers[k].chans = calloc(g_chans.n / nw + 1,
					    sizeof(*g_workers[k].chans));
		if (!g_workers[k].chans) {
			lttd_err("out of memory");
			return 1;
		}
	}
	for (size_t i = 0; i < g_chans.n; i++) {
		struct lttd_worker *k = &g_workers[i % nw];

		k->chans[k->n++] = g_chans.v[i];
	}
	for (size_t k = 0; k < nw; k++) {
		int e = pthread_create(&g_tids[k], NULL, worker_main,
				       &g_workers[k]);

		if (e) {
			/* stop, and empty the channels of the rest here */
			lttd_err("cannot start a worker thread: %s",
				 strerror(e));
			lttd_request_stop();
			for (size_t j = k; j < nw; j++)
				lttd_worker_run(&g_workers[j]);
			status = 1;
			nw = k;
			break;
		}
	}
	for (size_t k = 0; k < nw; k++)
		pthread_join(g_tids[k], NULL);
	for (size_t k = 0; k < nw_all; k++)
		if (g_workers[k].fatal)
			status = 1;

	report(&g_chans);
	for (size_t i = 0; i < g_chans.n; i++) {
		struct lttd_channel *ch = g_chans.v[i];

		if (ch->failed)
			status = 1;
		if (ch->out_fd >= 0 && close(ch->out_fd) < 0) {
			lttd_err("%s: closing the tracefile: %s", ch->path,
				 strerror(errno));
			status = 1;
		}
		lttd_relay_close(ch);
	}
	return status;
}
