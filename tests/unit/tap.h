/* tap.h - the smallest TAP producer, for the C unit tests.
 *
 *   ok(cond, "what %d", x);     one check; prints the values on failure
 *   is_int(got, want, "what");  compares two integers and shows both
 *   is_str(got, want, "what");  compares two strings (NULL-safe)
 *   tap_remove_tree(dir);       remove a scratch folder
 *   return tap_done();          the plan; exit status 1 if any failed
 */
#ifndef LTT_TESTS_TAP_H
#define LTT_TESTS_TAP_H

#include <ftw.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3), unused))
static int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

#define is_int(got, want, ...) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	if (!ok(g_ == w_, __VA_ARGS__))					\
		printf("#   got %lld (0x%llx), want %lld (0x%llx)\n",	\
		       g_, (unsigned long long)g_, w_, (unsigned long long)w_); \
} while (0)

#define is_str(got, want, ...) do {					\
	const char *g_ = (got), *w_ = (want);				\
	if (!ok(g_ && w_ ? strcmp(g_, w_) == 0 : g_ == w_, __VA_ARGS__)) \
		printf("#   got \"%s\"\n#  want \"%s\"\n",		\
		       g_ ? g_ : "(null)", w_ ? w_ : "(null)");		\
} while (0)

static int tap_rm_one(const char *path, const struct stat *sb, int flag,
		      struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(path);
}

/* Removes a scratch folder and everything in it (says so if it cannot). */
__attribute__((unused))
static void tap_remove_tree(const char *dir)
{
	if (nftw(dir, tap_rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		printf("# could not remove %s\n", dir);
}

__attribute__((unused))
static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
