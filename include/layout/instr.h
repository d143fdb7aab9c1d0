/**
 * @file instr.h
 * @brief One wave/warp-level memory instruction: every lane's byte address.
 *
 * The bank-conflict checker (check.h) and the coalescing model (coalesce.h)
 * consume ::layout_instr values; the access layer produces them from a
 * (descriptor, distribution) pair.  The struct is a plain value of fixed
 * size (no pointers), so it can be copied, stored in arrays and shared
 * between threads freely.
 *
 * Lane l of an instruction of width W touches the bytes
 * `addr_bytes[l] .. addr_bytes[l] + W - 1` when bit l of `active_mask` is set:
 *
 *     lane:        0     1     2     3   ...   63
 *     addr_bytes:  0    16    32    48   ...  1008      (W = 16, b128)
 *     active:      1     1     1     1   ...     1
 *
 * Contract shared by every consumer (checked by layout_instr_validate()):
 * `n_lanes` is 32 or 64, no bit at or above `n_lanes` is set in
 * `active_mask`, `width_bytes` is one of 1, 2, 4, 8, 12, 16 and `direction`
 * is ::LAYOUT_READ or ::LAYOUT_WRITE.  Addresses of inactive lanes are
 * ignored; any 32-bit address is accepted (arithmetic is done in 64 bits).
 */
#ifndef LAYOUT_INSTR_H
#define LAYOUT_INSTR_H

#include <stddef.h>
#include <stdint.h>

#include "layout/limits.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Whether an instruction loads from or stores to memory. */
typedef enum layout_direction {
    LAYOUT_READ = 0,  /**< a load (ds_read, LDS, global load) */
    LAYOUT_WRITE = 1  /**< a store (ds_write, STS, global store) */
} layout_direction;

/** Number of distinct access widths (1, 2, 4, 8, 12, 16 bytes). */
#define LAYOUT_N_WIDTHS 6

/**
 * One wave/warp-level memory instruction: every lane's byte address.
 *
 * Ownership: a plain value, owned by whoever holds it.  Thread safety: none
 * needed (no shared state).  Build one with layout_instr_init() and
 * layout_instr_fill_strided(), or set the fields directly and call
 * layout_instr_validate().
 */
typedef struct layout_instr {
    int n_lanes;                           /**< 32 or 64 (must equal the arch's wave size) */
    uint64_t active_mask;                  /**< bit l set = lane l active; bits >= n_lanes must be 0 */
    int width_bytes;                       /**< 1, 2, 4, 8, 12 or 16 bytes per lane */
    layout_direction direction;            /**< read or write */
    uint32_t addr_bytes[LAYOUT_MAX_LANES]; /**< per-lane byte address in LDS (inactive lanes ignored) */
} layout_instr;

/**
 * Index of a width in the order 1, 2, 4, 8, 12, 16 bytes -> 0..5; -1 for any
 * other value.  Example: layout_width_index(16) == 5.  Pure, never fails.
 */
int layout_width_index(int width_bytes);

/**
 * Width in bytes for index 0..5 (inverse of layout_width_index()); 0 for an
 * index out of range.  Example: layout_width_from_index(4) == 12.
 */
int layout_width_from_index(int index);

/** "read" or "write"; "?" for a value outside the enum.  Never NULL. */
const char *layout_direction_name(layout_direction direction);

/** Mask with the low @p n_lanes bits set (n_lanes in 0..64; others give 0). */
uint64_t layout_lane_mask_all(int n_lanes);

/**
 * Initialise @p out: @p n_lanes lanes, all active, every address 0.
 *
 * Errors: ::LAYOUT_ERR_NULL for out == NULL, ::LAYOUT_ERR_ARG for n_lanes not
 * 32/64, a width not in {1,2,4,8,12,16} or a bad direction.  On error *out is
 * untouched.
 */
layout_status layout_instr_init(layout_instr *out, int n_lanes, int width_bytes,
                                layout_direction direction, layout_error *err);

/**
 * Set every lane's address to `base_bytes + lane * stride_bytes` (all lanes,
 * active or not).  Example: base 0, stride 128 -> lane 3 at byte 384.
 *
 * Errors: ::LAYOUT_ERR_NULL for instr == NULL; ::LAYOUT_ERR_ARG when
 * instr->n_lanes is not 32/64; ::LAYOUT_ERR_OVERFLOW when an address would
 * leave 0..UINT32_MAX (including negative strides going below 0).  On error
 * *instr is untouched.
 */
layout_status layout_instr_fill_strided(layout_instr *instr, int64_t base_bytes,
                                        int64_t stride_bytes, layout_error *err);

/**
 * Check the contract above.  ::LAYOUT_OK when valid.
 *
 * Errors: ::LAYOUT_ERR_NULL (instr), ::LAYOUT_ERR_ARG (n_lanes, width_bytes,
 * direction, active_mask bits at or above n_lanes); the message names the
 * field and its value.  Pure and thread-safe.
 */
layout_status layout_instr_validate(const layout_instr *instr, layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_INSTR_H */
