// SPDX-License-Identifier: GPL-2.0
/*
 * lttctl.c - create, start, stop and destroy LTT traces; or all of it at once
 * with lttd copying the trace (-d).
 *
 * Every argument is checked before the first message leaves: a bad size or
 * a missing folder never leaves a half-made trace in the kernel.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lttctl.h"
#include "ltttrace.h"
#include "ltt/tool-stdout.h"

#define DEFAULT_RELAYFS_ROOT	"/mnt/relayfs/" LTT_RELAYFS_ROOT

static const char help_text[] =
"Usage: lttctl -n NAME [-c] [-s] [-q] [-r] [create options]\n"
"       lttctl -n NAME -d -t OUT_DIR [-l RELAYFS_ROOT] [create options]\n"
"Control the tracer of an LTT kernel over netlink (NETLINK_LTT 31).\n"
"\n"
"  -n, --name NAME          the trace (1 to 254 characters, no '/',\n"
"                           no space nor control character)\n"
"  -c, --create             create it (buffers allocated, not recording)\n"
"  -s, --start              start recording\n"
"  -q, --stop               stop recording; the buffers are flushed and\n"
"                           the channels hang up: lttd drains them, exits\n"
"  -r, --destroy            destroy it (stopped first if need be)\n"
"                           several of -c -s -q -r run in that order\n"
"  -d, --daemon             one shot: create, launch lttd on\n"
"                           RELAYFS_ROOT/NAME writing to OUT_DIR, start;\n"
"                           copies the facility descriptions to\n"
"                           OUT_DIR/eventdefs first\n"
"  -t, --output DIR         (-d) the trace directory lttd writes\n"
"  -l, --relayfs-root DIR   (-d) where the tracer's channels appear\n"
"                           (default " DEFAULT_RELAYFS_ROOT ")\n"
"  -a, --append             (-d) lttd appends to existing tracefiles\n"
"  -N, --lttd-threads N     (-d) lttd worker threads (default 1)\n"
"  -F, --facilities-dir DIR (-d) facility XML files to copy (default\n"
"                           the viewers' catalogue: $LTT_FACILITIES_DIR,\n"
"                           else share/ltt/facilities above lttctl's\n"
"                           folder, else the installed one; here\n"
"                           %s)\n"
"      --lttd PATH          (-d) the lttd to run (default: the lttd next\n"
"                           to lttctl, else lttd from PATH)\n"
"\n"
"Create options (with -c or -d):\n"
"  -m, --mode MODE          normal (default), flight (overwrite: a flight\n"
"                           recorder) or hybrid\n"
"  -T, --transport NAME     the kernel transport (default relay)\n"
"      --subbuf-size-low N  sub-buffer size of the low-rate channels\n"
"                           (control/facilities, interrupts, modules,\n"
"                           network)\n"
"      --subbuf-num-low N   number of sub-buffers of the low-rate channels\n"
"      --subbuf-size-med N, --subbuf-num-med N     the same, medium rate\n"
"                           (control/processes)\n"
"      --subbuf-size-high N, --subbuf-num-high N   the same, high rate\n"
"                           (cpu)\n"
"                           N may end in k, M or G.  Sizes: powers of two\n"
"                           from 4k to 64M; counts: powers of two from 2\n"
"                           to 256; size x count at most 256M per CPU.\n"
"                           Unset: the tracer's defaults (low %s x %u,\n"
"                           med %s x %u, high %s x %u; in flight mode\n"
"                           half the size, twice the count).\n"
"  -h, --help               this text\n"
"      --version            print the version and exit\n"
"\n"
"Exit status: 0 on success, 1 if the kernel or the system refused (the\n"
"message says why), 2 on bad usage.\n"
"\n"
"Kernels: the LTT patch series, or Debian's own kernel with the tracer's\n"
"modules (ltt-modules-dkms: modprobe ltt_relay ltt_control ltt_user, then\n"
"mount -t relayfs relayfs /mnt/relayfs).  With the modules there are no\n"
"markers, no system calls 451/452 (user space writes through\n"
"/proc/ltt_user_generic, as libltt-usertrace does on both), page faults are\n"
"only those the memory manager handles, and the probes' switch is\n"
"ltt_core.enable (see /usr/src/ltt-modules-*/README.md).\n";

struct opts {
	char *name;
	int create, start, stop, destroy, oneshot, append;
	char *output;
	char *relayfs_root;
	char *facilities_dir;
	int facilities_dir_given;
	char *lttd;
	int lttd_threads;
	char *threads_arg;
	char *mode;
	char *transport;
	char *size_arg[6];
	uint32_t sizes[6];
	uint32_t mode_val;
};

/* A size as the options take it: 65536 is "64k", 1048576 "1M". */
static const char *size_text(uint32_t v, char buf[16])
{
	if (v && v % (1u << 20) == 0)
		snprintf(buf, 16, "%uM", v >> 20);
	else if (v && v % 1024 == 0)
		snprintf(buf, 16, "%uk", v >> 10);
	else
		snprintf(buf, 16, "%u", v);
	return buf;
}

static void usage_error(const char *msg)
{
	fprintf(stderr, "lttctl: %s\nTry 'lttctl --help' for more "
		"information.\n", msg);
	exit(2);
}

static void fail(const char *msg)
{
	fprintf(stderr, "lttctl: %s\n", msg);
	exit(1);
}

/* popt's context and strings stay reachable for the program's life */
static poptContext pc;
static struct opts g_opts;

static void parse_options(int argc, const char **argv, struct opts *o)
{
	int help = 0, version = 0;
	char *threads = NULL;	/* kept in o->threads_arg */
	struct poptOption table[] = {
		{ "name", 'n', POPT_ARG_STRING, &o->name, 0, NULL, NULL },
		{ "create", 'c', POPT_ARG_NONE, &o->create, 0, NULL, NULL },
		{ "start", 's', POPT_ARG_NONE, &o->start, 0, NULL, NULL },
		{ "stop", 'q', POPT_ARG_NONE, &o->stop, 0, NULL, NULL },
		{ "destroy", 'r', POPT_ARG_NONE, &o->destroy, 0, NULL, NULL },
		{ "daemon", 'd', POPT_ARG_NONE, &o->oneshot, 0, NULL, NULL },
		{ "output", 't', POPT_ARG_STRING, &o->output, 0, NULL, NULL },
		{ "relayfs-root", 'l', POPT_ARG_STRING, &o->relayfs_root, 0,
		  NULL, NULL },
		{ "append", 'a', POPT_ARG_NONE, &o->append, 0, NULL, NULL },
		{ "lttd-threads", 'N', POPT_ARG_STRING, &threads, 0, NULL,
		  NULL },
		{ "facilities-dir", 'F', POPT_ARG_STRING, &o->facilities_dir,
		  0, NULL, NULL },
		{ "lttd", 0, POPT_ARG_STRING, &o->lttd, 0, NULL, NULL },
		{ "mode", 'm', POPT_ARG_STRING, &o->mode, 0, NULL, NULL },
		{ "transport", 'T', POPT_ARG_STRING, &o->transport, 0, NULL,
		  NULL },
		{ "subbuf-size-low", 0, POPT_ARG_STRING, &o->size_arg[0], 0,
		  NULL, NULL },
		{ "subbuf-num-low", 0, POPT_ARG_STRING, &o->size_arg[1], 0,
		  NULL, NULL },
		{ "subbuf-size-med", 0, POPT_ARG_STRING, &o->size_arg[2], 0,
		  NULL, NULL },
		{ "subbuf-num-med", 0, POPT_ARG_STRING, &o->size_arg[3], 0,
		  NULL, NULL },
		{ "subbuf-size-high", 0, POPT_ARG_STRING, &o->size_arg[4], 0,
		  NULL, NULL },
		{ "subbuf-num-high", 0, POPT_ARG_STRING, &o->size_arg[5], 0,
		  NULL, NULL },
		{ "help", 'h', POPT_ARG_NONE, &help, 0, NULL, NULL },
		{ "version", 0, POPT_ARG_NONE, &version, 0, NULL, NULL },
		POPT_TABLEEND
	};
	char msg[512];

	pc = poptGetContext("lttctl", argc, argv, table, 0);
	int rc;

	while ((rc = poptGetNextOpt(pc)) > 0)
		;
	if (rc < -1) {
		snprintf(msg, sizeof(msg), "%s: %s",
			 poptBadOption(pc, POPT_BADOPTION_NOALIAS),
			 poptStrerror(rc));
		usage_error(msg);
	}
	if (help) {
		char low[16], med[16], high[16];

		printf(help_text, ltt_default_facilities_dir(),
		       size_text(LTT_DEFAULT_SUBBUF_SIZE_LOW, low),
		       LTT_DEFAULT_N_SUBBUFS_LOW,
		       size_text(LTT_DEFAULT_SUBBUF_SIZE_MED, med),
		       LTT_DEFAULT_N_SUBBUFS_MED,
		       size_text(LTT_DEFAULT_SUBBUF_SIZE_HIGH, high),
		       LTT_DEFAULT_N_SUBBUFS_HIGH);
		exit(0);
	}
	if (version) {
		printf("lttctl (Linux Trace Toolkit) %s\n", LTTTRACE_VERSION_STRING);
		exit(0);
	}
	if (poptPeekArg(pc)) {
		snprintf(msg, sizeof(msg), "unexpected argument '%s'",
			 poptPeekArg(pc));
		usage_error(msg);
	}
	if (!o->name)
		usage_error("missing -n NAME (the trace)");
	if (!(o->create || o->start || o->stop || o->destroy || o->oneshot))
		usage_error("nothing to do: give -c, -s, -q, -r or -d");
	if (o->oneshot && (o->create || o->start || o->stop || o->destroy))
		usage_error("-d already creates and starts: it does not mix "
			    "with -c, -s, -q or -r");
	if (o->oneshot && !o->output)
		usage_error("-d needs -t OUT_DIR (where lttd writes)");
	if (!o->oneshot && (o->output || o->relayfs_root || o->append ||
			    o->facilities_dir || o->lttd || threads))
		usage_error("-t, -l, -a, -N, -F and --lttd go with -d only");
	o->lttd_threads = 1;
	if (threads) {
		char *end;
		long v = strtol(threads, &end, 10);

		if (*threads < '0' || *threads > '9' || *end || v < 1 ||
		    v > 256) {
			snprintf(msg, sizeof(msg), "-N '%s': want a number of "
				 "threads from 1 to 256", threads);
			usage_error(msg);
		}
		o->lttd_threads = (int)v;
	}
	o->threads_arg = threads;

	int creating = o->create || o->oneshot;
	int any_size = 0;

	for (int i = 0; i < 6; i++)
		any_size |= o->size_arg[i] != NULL;
	if (!creating && (o->mode || o->transport || any_size))
		usage_error("-m, -T and the sub-buffer options go with -c or "
			    "-d only");
	if (o->mode) {
		int m = lttctl_parse_mode(o->mode);

		if (m < 0) {
			snprintf(msg, sizeof(msg), "unknown mode '%s' (normal, "
				 "flight or hybrid)", o->mode);
			usage_error(msg);
		}
		o->mode_val = (uint32_t)m;
	}
	if (!o->transport)
		o->transport = "relay";
	if (!o->relayfs_root)
		o->relayfs_root = DEFAULT_RELAYFS_ROOT;
	if (o->facilities_dir) {
		o->facilities_dir_given = 1;
	} else {
		const char *env = getenv("LTT_FACILITIES_DIR");

		/* a folder the user named must exist; the default need not */
		o->facilities_dir_given = env && *env;
		o->facilities_dir = (char *)ltt_default_facilities_dir();
	}

	static const char *const what[6] = {
		"--subbuf-size-low", "--subbuf-num-low", "--subbuf-size-med",
		"--subbuf-num-med", "--subbuf-size-high", "--subbuf-num-high",
	};
	for (int i = 0; i < 6; i++) {
		char err[256];

		if (o->size_arg[i] && lttctl_parse_u32(o->size_arg[i],
					&o->sizes[i], err, sizeof(err)) < 0) {
			snprintf(msg, sizeof(msg), "%s: %s", what[i], err);
			usage_error(msg);
		}
		if (o->size_arg[i] && o->sizes[i] == 0) {
			snprintf(msg, sizeof(msg), "%s: 0 is not a valid value "
				 "(leave it out for the default)", what[i]);
			usage_error(msg);
		}
	}
	static const char *const cls[3] = { "low", "med", "high" };
	static const uint32_t defs[6] = {
		LTT_DEFAULT_SUBBUF_SIZE_LOW, LTT_DEFAULT_N_SUBBUFS_LOW,
		LTT_DEFAULT_SUBBUF_SIZE_MED, LTT_DEFAULT_N_SUBBUFS_MED,
		LTT_DEFAULT_SUBBUF_SIZE_HIGH, LTT_DEFAULT_N_SUBBUFS_HIGH,
	};
	for (int c = 0; c < 3; c++) {
		char err[256];

		if (lttctl_check_class(cls[c], o->sizes[2 * c],
				       o->sizes[2 * c + 1], defs[2 * c],
				       defs[2 * c + 1], err, sizeof(err)) < 0)
			usage_error(err);
	}
	/* the names, through the same check the message gets */
	struct ltt_control_msg m;
	char err[256];

	if (lttctl_build(&m, LTT_OP_CREATE, o->name, o->transport, 0,
			 o->sizes, err, sizeof(err)) < 0)
		usage_error(err);
}

/* ---- talking to the kernel ----------------------------------------------- */

static uint32_t next_seq;

static int request(int fd, const struct opts *o, enum ltt_control_op op)
{
	struct ltt_control_msg m;
	char err[512];

	if (lttctl_build(&m, op, o->name, o->transport, o->mode_val, o->sizes,
			 err, sizeof(err)) < 0) {
		fprintf(stderr, "lttctl: %s\n", err);
		return -1;
	}
	int r = lttctl_transact(fd, &m, ++next_seq, LTTCTL_ACK_TIMEOUT_MS);

	if (r == 0)
		return 0;
	if (r == -ETIMEDOUT)
		fprintf(stderr, "lttctl: %s trace '%s': no answer from the "
			"kernel within %d s\n", lttctl_op_name(op), o->name,
			LTTCTL_ACK_TIMEOUT_MS / 1000);
	else if (r < 0)
		fprintf(stderr, "lttctl: %s trace '%s': %s\n",
			lttctl_op_name(op), o->name, strerror(-r));
	else
		fprintf(stderr, "lttctl: %s\n", lttctl_explain(op, r, o->name,
				o->transport, err, sizeof(err)));
	return -1;
}

/* ---- the one-shot form --------------------------------------------------- */

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		if (c == '\0')
			return 0;
		*p = c;
	}
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, ret = -1;
	ssize_t n;

	if (in < 0) {
		fprintf(stderr, "lttctl: %s: %s\n", from, strerror(errno));
		return -1;
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		fprintf(stderr, "lttctl: %s: %s\n", to, strerror(errno));
		goto done;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "lttctl: %s: %s\n", from,
				strerror(errno));
			goto done;
		}
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				fprintf(stderr, "lttctl: %s: %s\n", to,
					w < 0 ? strerror(errno) : "short write");
				goto done;
			}
			off += w;
		}
	}
	ret = 0;
done:
	if (out >= 0 && close(out) < 0 && ret == 0) {
		fprintf(stderr, "lttctl: %s: %s\n", to, strerror(errno));
		ret = -1;
	}
	close(in);
	return ret;
}

/*
 * Copies the *.xml files of the facilities folder into OUT/eventdefs.  A
 * missing default folder is only a warning (the trace is still readable with
 * the viewer's -f); a folder given with -F or $LTT_FACILITIES_DIR must exist.
 */
static int copy_facilities(const struct opts *o)
{
	char dst[PATH_MAX];
	DIR *d = opendir(o->facilities_dir);
	int copied = 0;

	if (!d) {
		fprintf(stderr, "lttctl: %s: %s: %s\n",
			o->facilities_dir_given ? "error" : "warning",
			o->facilities_dir, strerror(errno));
		return o->facilities_dir_given ? -1 : 0;
	}
	snprintf(dst, sizeof(dst), "%s/%s", o->output, LTT_EVENTDEFS_DIR);
	if (mkdir_p(dst) < 0) {
		fprintf(stderr, "lttctl: %s: cannot create: %s\n", dst,
			strerror(errno));
		closedir(d);
		return -1;
	}
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		char from[PATH_MAX], to[PATH_MAX];
		struct stat st;

		if (len < 5 || strcmp(e->d_name + len - 4, ".xml") != 0)
			continue;
		if (snprintf(from, sizeof(from), "%s/%s", o->facilities_dir,
			     e->d_name) >= (int)sizeof(from) ||
		    snprintf(to, sizeof(to), "%s/%s", dst, e->d_name)
			     >= (int)sizeof(to)) {
			fprintf(stderr, "lttctl: %s: path too long\n",
				e->d_name);
			closedir(d);
			return -1;
		}
		if (stat(from, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (copy_file(from, to) < 0) {
			closedir(d);
			return -1;
		}
		copied++;
	}
	closedir(d);
	if (copied == 0)
		fprintf(stderr, "lttctl: warning: no facility description "
			"(*.xml) in %s\n", o->facilities_dir);
	return 0;
}

/* The lttd next to this lttctl if there is one, else lttd from PATH. */
static const char *find_lttd(const struct opts *o, char *buf, size_t len)
{
	if (o->lttd)
		return o->lttd;
	ssize_t n = readlink("/proc/self/exe", buf, len - 6);

	if (n > 0) {
		buf[n] = '\0';
		char *slash = strrchr(buf, '/');

		if (slash) {
			strcpy(slash + 1, "lttd");
			if (access(buf, X_OK) == 0)
				return buf;
		}
	}
	return "lttd";
}

/*
 * Runs lttd -D: it returns once every channel is open and mapped (the
 * daemon stays), so its exit status says whether it took the trace.
 */
static int run_lttd(const struct opts *o, const char *trace_dir)
{
	char self[PATH_MAX], threads[16];
	const char *lttd = find_lttd(o, self, sizeof(self));
	const char *argv[12];
	int k = 0;

	snprintf(threads, sizeof(threads), "%d", o->lttd_threads);
	argv[k++] = lttd;
	argv[k++] = "-t";
	argv[k++] = trace_dir;
	argv[k++] = "-d";
	argv[k++] = o->output;
	argv[k++] = "-N";
	argv[k++] = threads;
	argv[k++] = "-D";
	if (o->append)
		argv[k++] = "-a";
	argv[k] = NULL;

	fflush(NULL);
	pid_t pid = fork();

	if (pid < 0) {
		fprintf(stderr, "lttctl: cannot fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		execvp(lttd, (char *const *)argv);
		fprintf(stderr, "lttctl: cannot run %s: %s\n", lttd,
			strerror(errno));
		_exit(127);
	}
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "lttctl: waiting for lttd: %s\n",
				strerror(errno));
			return -1;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	fprintf(stderr, "lttctl: lttd did not take trace '%s' (%s %d)\n",
		o->name, WIFEXITED(status) ? "exit status" : "signal",
		WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return -1;
}

/* The tracer creates RELAYFS_ROOT/NAME: give it a moment to appear. */
static int wait_for_dir(const char *dir)
{
	for (int i = 0; i < 40; i++) {
		struct stat st;

		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			return 0;
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "lttctl: %s did not appear: is relayfs mounted there "
		"(see -l)?\n", dir);
	return -1;
}

static int oneshot(int fd, struct opts *o)
{
	char trace_dir[PATH_MAX];

	if (snprintf(trace_dir, sizeof(trace_dir), "%s/%s", o->relayfs_root,
		     o->name) >= (int)sizeof(trace_dir))
		fail("the relayfs path is too long");
	if (request(fd, o, LTT_OP_CREATE) < 0)
		return -1;
	if (wait_for_dir(trace_dir) < 0 || run_lttd(o, trace_dir) < 0 ||
	    request(fd, o, LTT_OP_START) < 0) {
		fprintf(stderr, "lttctl: destroying trace '%s' again\n",
			o->name);
		request(fd, o, LTT_OP_DESTROY);
		return -1;
	}
	printf("lttctl: trace '%s' recording; lttd copies %s to %s\n"
	       "lttctl: stop it with: lttctl -n %s -q -r\n", o->name,
	       trace_dir, o->output, o->name);
	return 0;
}

int main(int argc, char **argv)
{
	char err[512];

	ltt_check_stdout_at_exit("lttctl");	/* --help, --version too */
	parse_options(argc, (const char **)argv, &g_opts);
	next_seq = (uint32_t)time(NULL);

	struct stat st;

	if (g_opts.oneshot && g_opts.facilities_dir_given) {
		int e = stat(g_opts.facilities_dir, &st) < 0 ? errno
			: !S_ISDIR(st.st_mode) ? ENOTDIR : 0;

		if (e) {
			snprintf(err, sizeof(err), "facilities folder %s: %s",
				 g_opts.facilities_dir, strerror(e));
			fail(err);
		}
	}

	/* nothing is sent, nor created, if the tracer is not there */
	int fd = lttctl_open(err, sizeof(err));

	if (fd < 0)
		fail(err);

	if (g_opts.oneshot) {
		if (mkdir_p(g_opts.output) < 0) {
			snprintf(err, sizeof(err), "%s: cannot create: %s",
				 g_opts.output, strerror(errno));
			fail(err);
		}
		if (copy_facilities(&g_opts) < 0)
			return 1;
		return oneshot(fd, &g_opts) < 0 ? 1 : 0;
	}
	if (g_opts.create && request(fd, &g_opts, LTT_OP_CREATE) < 0)
		return 1;
	if (g_opts.start && request(fd, &g_opts, LTT_OP_START) < 0)
		return 1;
	if (g_opts.stop && request(fd, &g_opts, LTT_OP_STOP) < 0)
		return 1;
	if (g_opts.destroy && request(fd, &g_opts, LTT_OP_DESTROY) < 0)
		return 1;
	close(fd);
	return 0;
}
