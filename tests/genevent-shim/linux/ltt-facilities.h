/* Test double of <linux/ltt-facilities.h>: registration gives ids in
 * order, as the kernel's registry does after core (0) and channel (1). */
#ifndef SHIM_LTT_FACILITIES_H
#define SHIM_LTT_FACILITIES_H
struct ltt_facility {
	const char *name;
	u32 checksum;
	u8 int_size, long_size, pointer_size, size_t_size, alignment;
	int id;
};
#define LTT_FACILITY_INIT(_name, _checksum) {				\
	.name = (_name), .checksum = (_checksum),			\
	.int_size = sizeof(int), .long_size = sizeof(long),		\
	.pointer_size = sizeof(void *), .size_t_size = sizeof(size_t),	\
	.alignment = sizeof(void *), .id = -1 }
int ltt_facility_register(struct ltt_facility *facility);
#endif
