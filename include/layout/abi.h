/**
 * @file abi.h
 * @brief Sizes and field offsets of the public structs, for language
 *        bindings that load liblayout at run time (Python's ctypes).
 *
 * A binding that never sees the headers still needs to know how large a
 * ::layout_descriptor is (to hand the library a buffer of the right size)
 * and, for the few structs it reads field by field, where each field sits.
 * Hard-coding those numbers breaks silently when a capacity in limits.h
 * changes; asking the library that is actually loaded does not:
 *
 * @code
 *   layout_abi_sizeof("layout_descriptor")            -> sizeof(layout_descriptor)
 *   layout_abi_offsetof("layout_kernel_result", "read") -> offsetof(layout_kernel_result, read)
 *   layout_abi_sizeof("no_such_type")                 -> 0
 * @endcode
 *
 * The Python module (python/liblayout) checks every struct it mirrors
 * against these answers when it loads the library and refuses a library
 * that disagrees.  Names are the C type names (`layout_...`) and the C field
 * names; nested fields are not addressed (ask for the outer field).
 *
 * Thread safety: pure functions over constant tables.  Nothing allocates.
 */
#ifndef LAYOUT_ABI_H
#define LAYOUT_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * `sizeof(T)` of the public struct named @p type_name, e.g.
 * `layout_abi_sizeof("layout_arch") == sizeof(layout_arch)`; 0 when
 * @p type_name is NULL or names no public struct of this library.
 * Every struct type of the headers included by layout.h at this version
 * is known (layout_abi_type_name() lists them).
 */
size_t layout_abi_sizeof(const char *type_name);

/**
 * `offsetof(T, field)` in bytes of field @p field_name of the struct
 * @p type_name, e.g. `layout_abi_offsetof("layout_error", "message") ==
 * offsetof(layout_error, message)`; -1 when either name is NULL or unknown.
 * Covers every field of the structs a binding reads or fills directly:
 * ::layout_error, ::layout_instr, ::layout_cost, ::layout_side_result,
 * ::layout_kernel_result, ::layout_kernel_spec, ::layout_access_options,
 * and the leading scalars of ::layout_arch and ::layout_distribution; in
 * builds with the layout search (suggest.h) also its result, candidate,
 * cost, family statistics and text spec, and layout_family_params::kind.
 */
int64_t layout_abi_offsetof(const char *type_name, const char *field_name);

/** Number of struct types layout_abi_sizeof() knows. */
size_t layout_abi_type_count(void);

/**
 * Name of known struct type @p index (0 .. layout_abi_type_count() - 1),
 * e.g. "layout_descriptor"; NULL when out of range.  Static storage.
 */
const char *layout_abi_type_name(size_t index);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_ABI_H */
