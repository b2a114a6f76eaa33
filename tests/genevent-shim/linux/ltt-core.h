/* Test double of the kernel's <linux/ltt-core.h> for tests/unit/test_genevent.c:
 * only what genevent's output uses, with the payload rules of
 * docs/format.md. ltt_log_event() records the payload instead of tracing. */
#ifndef SHIM_LTT_CORE_H
#define SHIM_LTT_CORE_H
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <linux/kernel.h>

#define LTT_ALIGNMENT sizeof(void *)

static inline size_t ltt_align(size_t offset, size_t size)
{
	size_t a = size < LTT_ALIGNMENT ? size : LTT_ALIGNMENT;

	while (a & (a - 1))
		a &= a - 1;
	return a ? (a - offset) & (a - 1) : 0;
}

struct ltt_payload {
	char *data;
	size_t len;
	size_t cap;
	bool overflow;
};

static inline void ltt_payload_put(struct ltt_payload *p, const void *v,
				   size_t size, size_t align)
{
	size_t pad = ltt_align(p->len, align);

	if (p->len + pad + size > p->cap) {
		p->overflow = true;
		return;
	}
	memset(p->data + p->len, 0, pad);
	memcpy(p->data + p->len + pad, v, size);
	p->len += pad + size;
}

/* as the kernel's (patch 0003): the realignment after strings and sequences */
static inline void ltt_payload_realign(struct ltt_payload *p)
{
	size_t pad = ltt_align(p->len, sizeof(void *));

	if (p->len + pad > p->cap) {
		p->overflow = true;
		return;
	}
	memset(p->data + p->len, 0, pad);
	p->len += pad;
}

enum ltt_channels {
	LTT_CHANNEL_FACILITIES, LTT_CHANNEL_INTERRUPTS, LTT_CHANNEL_PROCESSES,
	LTT_CHANNEL_MODULES, LTT_CHANNEL_NETWORK, LTT_CHANNEL_CPU,
};

struct ltt_traces {
	unsigned int num_active_traces;
};
extern struct ltt_traces ltt_traces;
struct ltt_trace;
void ltt_log_event(struct ltt_trace *only, enum ltt_channels chan, u8 fac,
		   u8 ev, const void *payload, size_t len);
#endif
