/**
 * @file status.h
 * @brief Status codes and error messages shared by every liblayout call.
 *
 * Every liblayout function that can fail returns a ::layout_status
 * (0 = ::LAYOUT_OK, negative = an error) and, when the caller passes a
 * non-NULL ::layout_error, writes a one-line message naming the offending
 * argument and value into it.  On failure every other out-parameter is left
 * untouched.
 *
 * Domain results are not errors: a bank conflict is a result, a padded
 * (invalid) coordinate is a result; a zero length or a NULL pointer is an
 * error.
 *
 * Thread safety: all functions here are pure; ::layout_error is a caller-owned
 * value, so no state is shared between threads.
 */
#ifndef LAYOUT_STATUS_H
#define LAYOUT_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Outcome of a liblayout call: 0 on success, a negative code on misuse. */
typedef enum layout_status {
    LAYOUT_OK = 0,                 /**< success */
    LAYOUT_ERR_NULL = -1,          /**< a required pointer argument was NULL */
    LAYOUT_ERR_ARG = -2,           /**< an argument value is out of its domain (e.g. a length <= 0) */
    LAYOUT_ERR_OVERFLOW = -3,      /**< an int64 length, stride or offset would overflow */
    LAYOUT_ERR_CAPACITY = -4,      /**< more dims, transforms, lanes or items than the fixed capacity */
    LAYOUT_ERR_DIM_ID = -5,        /**< a dimension id list is not a valid permutation / out of range */
    LAYOUT_ERR_RANGE = -6,         /**< a coordinate lies outside the top lengths */
    LAYOUT_ERR_UNSUPPORTED = -7,   /**< the architecture or build does not support the request (e.g. width) */
    LAYOUT_ERR_MISALIGNED = -8,    /**< an access is not aligned as required */
    LAYOUT_ERR_NOT_FOUND = -9,     /**< a name (preset, kind) is unknown */
    LAYOUT_ERR_BUFFER = -10,       /**< a caller-provided buffer is too small */
    LAYOUT_ERR_PARSE = -11,        /**< text input could not be parsed */
    LAYOUT_ERR_MISMATCH = -12      /**< shapes or sizes of two arguments do not agree */
} layout_status;

/** Capacity of ::layout_error::message in bytes, including the NUL. */
#define LAYOUT_ERROR_MESSAGE_CAP 256

/**
 * A caller-owned error record.  Functions taking a `layout_error *err` fill
 * it on failure (status + message) and, on success, set `status` to
 * ::LAYOUT_OK and `message` to the empty string.  Passing NULL is allowed
 * and simply drops the message.
 */
typedef struct layout_error {
    layout_status status;                    /**< the code that was returned */
    char message[LAYOUT_ERROR_MESSAGE_CAP];  /**< "function: argument 'x' = 0 must be > 0" */
} layout_error;

/**
 * Short constant name of a status, e.g. "LAYOUT_ERR_ARG".
 * Unknown values give "LAYOUT_ERR_UNKNOWN".  Never returns NULL.
 */
const char *layout_status_name(layout_status status);

/** Non-zero when @p status is an error (negative). Mirrors ZSTD_isError. */
static inline int layout_is_error(layout_status status) { return status < 0; }

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_STATUS_H */
