/* Reading and comparing the linear-layout bases of the Triton fixtures
 * (tests/fixtures/triton/: lines "bases DIM N v v ...", N bases of one
 * value per output dim each).  Shared by test_triton_peer.c and
 * test_triton_mma_fixtures.c, whose fixture formats differ only around
 * these lines. */
#ifndef LAYOUT_TEST_TRITON_BASES_H
#define LAYOUT_TEST_TRITON_BASES_H

#include "layout.h"

/* The most values one "bases" line may carry (the count included). */
#define TRITON_BASES_MAX_VALUES 256

/* The integers of p, separated by blanks, into out: their number; -1 when
 * there are more than cap, or anything but blanks after them. */
int triton_bases_ints(const char *p, int64_t *out, int cap);

/* The text after "bases " of a fixture line: DIM one of dims[0..n_dims),
 * then N <= max_bases bases of `rank` values.  Sets have[d] = 1,
 * count[d] = N and v[d * v_stride ..] to the values; 1, or 0 when the line
 * is malformed (unknown dim, one given twice, a count that does not match,
 * max_bases * rank over the limit above). */
int triton_bases_line(const char *p, const char *const *dims, int n_dims, int rank, int max_bases, int *have, int *count,
                      int64_t *v, size_t v_stride);

/* "[a, b] [c, d] ..." of n bases of rank values, cut short to fit buf. */
void triton_bases_fmt(const int64_t *v, int n, int rank, char *buf, size_t cap);

/* The bases of input dim `name` of ll into v (at most max of them;
 * `rank` values each): the number ll has (0 when it has no such dim). */
int triton_bases_of(const layout_linear *ll, const char *name, int rank, int64_t *v, int max);

#endif /* LAYOUT_TEST_TRITON_BASES_H */
