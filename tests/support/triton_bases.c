/* The Triton fixtures' bases lines (triton_bases.h). */
#include "triton_bases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int triton_bases_ints(const char *p, int64_t *out, int cap)
{
    int n = 0;
    char *end;
    for (;;) {
        long long x = strtoll(p, &end, 10);
        if (end == p) break;
        if (n >= cap) return -1;
        out[n++] = (int64_t)x;
        p = end;
    }
    while (*p == ' ') p++;
    return *p ? -1 : n;
}

int triton_bases_line(const char *p, const char *const *dims, int n_dims, int rank, int max_bases, int *have, int *count,
                      int64_t *v, size_t v_stride)
{
    size_t n = strcspn(p, " ");
    int64_t vals[TRITON_BASES_MAX_VALUES];
    int d = -1, got, k;
    if (rank < 1 || max_bases < 0 || max_bases > (TRITON_BASES_MAX_VALUES - 1) / rank) return 0;
    for (k = 0; k < n_dims; k++)
        if (strlen(dims[k]) == n && strncmp(p, dims[k], n) == 0) d = k;
    got = triton_bases_ints(p + n, vals, 1 + max_bases * rank);
    if (d < 0 || have[d] || got < 1 || vals[0] < 0 || vals[0] > max_bases || got != 1 + vals[0] * rank) return 0;
    have[d] = 1;
    count[d] = (int)vals[0];
    memcpy(v + (size_t)d * v_stride, vals + 1, (size_t)(got - 1) * sizeof vals[0]);
    return 1;
}

void triton_bases_fmt(const int64_t *v, int n, int rank, char *buf, size_t cap)
{
    size_t at = 0;
    int b, k;
    buf[0] = 0;
    for (b = 0; b < n && at + 48 < cap; b++) {
        at += (size_t)snprintf(buf + at, cap - at, b ? " [" : "[");
        for (k = 0; k < rank; k++) at += (size_t)snprintf(buf + at, cap - at, k ? ", %lld" : "%lld", (long long)v[b * rank + k]);
        at += (size_t)snprintf(buf + at, cap - at, "]");
    }
}

int triton_bases_of(const layout_linear *ll, const char *name, int rank, int64_t *v, int max)
{
    int dim = layout_linear_in_dim(ll, name), b, k;
    int64_t got[LAYOUT_LINEAR_MAX_DIMS];
    if (dim < 0) return 0;
    for (b = 0; b < ll->in_bits[dim] && b < max; b++) {
        layout_linear_get_basis(ll, dim, b, got, NULL);
        for (k = 0; k < rank; k++) v[b * rank + k] = got[k];
    }
    return ll->in_bits[dim];
}
