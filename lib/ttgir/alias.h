/* Layout aliases of a parsed TTGIR module, looked up by name: the ttgir
 * layer's one lookup, shared with the layers above it (triton_kernel).
 * Not installed: users read m->aliases (layout/ttgir.h) or resolve a type
 * with layout_ttgir_encoding().
 *
 * A module defines an alias on a line `#name = <attribute>`
 * (`#blocked = #ttg.blocked<{sizePerThread = [1, 8], ...}>`); types and
 * attributes then name it (`tensor<64x32xf16, #blocked>`,
 * `#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>`). */
#ifndef LAYOUT_TTGIR_ALIAS_H
#define LAYOUT_TTGIR_ALIAS_H

#include <stddef.h>

#include "layout/ttgir.h"

/* The alias named by the len bytes at name (with the '#': "#blocked"):
 *
 *   result = the least i < m->n_aliases with m->aliases[i].name_len == len
 *            and m->text[name_at .. name_at + len) == name[0 .. len),
 *            or -1 when there is none
 *
 * One level only: for `#a = #b` the alias of "#a" is found and its text is
 * "#b" (layout_ttgir_encoding() follows such chains; the triton_kernel
 * layer inlines the aliases nested inside an attribute).  The parser
 * refuses a name defined twice, so at most one alias of a parsed module
 * matches; a module filled by hand with a duplicate gives the first.
 * name need not point into m->text nor be NUL-terminated; a name that
 * merely starts another alias's name ("#block" against "#blocked") does
 * not match.
 *
 * Example: m parsed from "#blocked = #ttg.blocked<{...}>\n#mma = ...":
 *   layout_ttgir_alias_find(&m, "#mma", 4)    == 1
 *   layout_ttgir_alias_find(&m, "#block", 6)  == -1
 *
 * Errors: m or name NULL gives -1.  Thread safety: reads only. */
int layout_ttgir_alias_find(const layout_ttgir *m, const char *name, size_t len);

#endif /* LAYOUT_TTGIR_ALIAS_H */
