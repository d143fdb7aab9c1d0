/* Stub bodies (first commit only): the API of linear.h compiles and links. */
#include "layout/linear.h"

layout_status layout_linear_init(layout_linear *out, layout_error *err)
{
    (void)out;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_add_in_dim(layout_linear *ll, const char *name, int n_bits, layout_error *err)
{
    (void)ll;
    (void)name;
    (void)n_bits;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_add_out_dim(layout_linear *ll, const char *name, int n_bits, layout_error *err)
{
    (void)ll;
    (void)name;
    (void)n_bits;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_set_basis(layout_linear *ll, int in_dim, int bit, const int64_t *out_values, layout_error *err)
{
    (void)ll;
    (void)in_dim;
    (void)bit;
    (void)out_values;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_get_basis(const layout_linear *ll, int in_dim, int bit, int64_t *out_values, layout_error *err)
{
    (void)ll;
    (void)in_dim;
    (void)bit;
    (void)out_values;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_from_bases(layout_linear *out, int n_in, const char *const *in_names, const int *in_bits, const int64_t *bases, int n_out, const char *const *out_names, const int *out_bits, layout_error *err)
{
    (void)out;
    (void)n_in;
    (void)in_names;
    (void)in_bits;
    (void)bases;
    (void)n_out;
    (void)out_names;
    (void)out_bits;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_identity(layout_linear *out, const char *in_name, const char *out_name, int n_bits, layout_error *err)
{
    (void)out;
    (void)in_name;
    (void)out_name;
    (void)n_bits;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_product(layout_linear *out, const layout_linear *inner, const layout_linear *outer, layout_error *err)
{
    (void)out;
    (void)inner;
    (void)outer;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_transpose_outs(layout_linear *out, const layout_linear *in, int n, const char *const *names, layout_error *err)
{
    (void)out;
    (void)in;
    (void)n;
    (void)names;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_transpose_ins(layout_linear *out, const layout_linear *in, int n, const char *const *names, layout_error *err)
{
    (void)out;
    (void)in;
    (void)n;
    (void)names;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

int layout_linear_in_dim(const layout_linear *ll, const char *name)
{
    (void)ll;
    (void)name;
    return -1;
}

int layout_linear_out_dim(const layout_linear *ll, const char *name)
{
    (void)ll;
    (void)name;
    return -1;
}

layout_status layout_linear_apply(const layout_linear *ll, const int64_t *in, int64_t *out, layout_error *err)
{
    (void)ll;
    (void)in;
    (void)out;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

int layout_linear_rank(const layout_linear *ll)
{
    (void)ll;
    return -1;
}

int layout_linear_is_injective(const layout_linear *ll)
{
    (void)ll;
    return -1;
}

int layout_linear_is_surjective(const layout_linear *ll)
{
    (void)ll;
    return -1;
}

int layout_linear_is_bijective(const layout_linear *ll)
{
    (void)ll;
    return -1;
}

int layout_linear_equal(const layout_linear *a, const layout_linear *b)
{
    (void)a;
    (void)b;
    return -1;
}

layout_status layout_linear_compose(layout_linear *out, const layout_linear *first, const layout_linear *second, layout_error *err)
{
    (void)out;
    (void)first;
    (void)second;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_invert(layout_linear *out, const layout_linear *ll, layout_error *err)
{
    (void)out;
    (void)ll;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_pseudo_invert(layout_linear *out, const layout_linear *ll, layout_error *err)
{
    (void)out;
    (void)ll;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

int layout_linear_print(const layout_linear *ll, char *buf, size_t cap)
{
    (void)ll;
    (void)buf;
    (void)cap;
    return -1;
}

layout_status layout_desc_to_linear(const layout_descriptor *d, layout_linear *out, layout_error *err)
{
    (void)d;
    (void)out;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_dist_to_linear(const layout_distribution *d, layout_linear *out, layout_error *err)
{
    (void)d;
    (void)out;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_to_desc(const layout_linear *ll, layout_descriptor *out, layout_error *err)
{
    (void)ll;
    (void)out;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_to_dist(const layout_linear *ll, int64_t *table, size_t table_cap, layout_distribution *out, layout_error *err)
{
    (void)ll;
    (void)table;
    (void)table_cap;
    (void)out;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_tile_offsets(const layout_linear *ll, int64_t *offsets, size_t cap, layout_error *err)
{
    (void)ll;
    (void)offsets;
    (void)cap;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_lane_access(const layout_linear *ll, const char *lane_dim, const int64_t *in_values, int elem_bytes, layout_direction direction, int width_bytes, layout_linear_access *out, layout_error *err)
{
    (void)ll;
    (void)lane_dim;
    (void)in_values;
    (void)elem_bytes;
    (void)direction;
    (void)width_bytes;
    (void)out;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_access_instr(const layout_linear_access *acc, layout_instr *out, layout_error *err)
{
    (void)acc;
    (void)out;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}

layout_status layout_linear_access_cost(const layout_arch *arch, const layout_linear_access *acc, layout_cost *out, layout_error *err)
{
    (void)arch;
    (void)acc;
    (void)out;
    (void)err;
    return LAYOUT_ERR_UNSUPPORTED;
}
