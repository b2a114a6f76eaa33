/* Test double: the kernel types and macros genevent's output uses. */
#ifndef SHIM_KERNEL_H
#define SHIM_KERNEL_H
#include <stdint.h>
#include <sys/types.h>
typedef uint8_t u8; typedef uint16_t u16; typedef uint32_t u32; typedef uint64_t u64;
typedef int8_t s8; typedef int16_t s16; typedef int32_t s32; typedef int64_t s64;
#define likely(x) __builtin_expect(!!(x), 1)
#define READ_ONCE(x) (*(volatile __typeof__(x) *)&(x))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define __init
#define core_initcall(fn) int (*shim_initcall_##fn)(void) = fn
#endif
