/* Placeholder demo (the real one replaces it): prints the offset grids of
 * the seed talk's LDS descriptors for kernels 01 (row-major) and 08 (XOR,
 * 32 banks), built the way the talk builds them. */
#include <layout.h>
#include <stdio.h>

static int print_grid(const char *title, const layout_descriptor *d)
{
    printf("%s\n  m\\k", title);
    for (int64_t k = 0; k < layout_desc_length(d, 1); k++) printf("%5d", (int)k);
    printf("\n");
    for (int64_t m = 0; m < layout_desc_length(d, 0); m++) {
        printf("%4d", (int)m);
        for (int64_t k = 0; k < layout_desc_length(d, 1); k++) {
            int64_t mk[2] = { m, k }, off;
            if (layout_desc_offset(d, mk, &off, NULL) != LAYOUT_OK) return 1;
            printf("%5d", (int)off);
        }
        printf("\n");
    }
    printf("\n");
    return 0;
}

int main(void)
{
    layout_descriptor d;
    layout_transform t[3];
    layout_error err;
    char text[2048];

    /* kernel 01: make_naive_tensor_descriptor_packed([kM = 64, kK = 32]) */
    int64_t mk_len[2] = { 64, 32 };
    if (layout_packed(&d, 2, mk_len, &err)) goto fail;
    if (print_grid("kernel 01: row-major [M = 64, K = 32]", &d)) goto fail;

    /* kernel 08, 32 banks: MLdsLayer L = 2, RowMul = 1 (the tutorial of layout.h) */
    int64_t len[3] = { 8, 32, 8 }, stride[3] = { 8, 64, 1 };
    if (layout_naive_vec(&d, 3, len, stride, 8, 1, &err)) goto fail;
    layout_make_xor(32, 8, &t[0], NULL);
    layout_make_pass_through(8, &t[1], NULL);
    layout_seq lo2[2] = { LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2) }, up2[2] = { LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2) };
    if (layout_transform_descriptor(&d, &d, 2, t, lo2, up2, &err)) goto fail;
    int64_t l_k0[2] = { 2, 4 };
    layout_make_unmerge(2, l_k0, &t[0], NULL);
    layout_make_pass_through(32, &t[1], NULL);
    layout_make_pass_through(8, &t[2], NULL);
    layout_seq lo3[3] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1), LAYOUT_SEQ(2) };
    layout_seq up3[3] = { LAYOUT_SEQ(0, 2), LAYOUT_SEQ(1), LAYOUT_SEQ(3) };
    if (layout_transform_descriptor(&d, &d, 3, t, lo3, up3, &err)) goto fail;
    int64_t b_l[2] = { 32, 2 }, k0_kp[2] = { 4, 8 };
    layout_make_merge(2, b_l, &t[0], NULL);
    layout_make_merge(2, k0_kp, &t[1], NULL);
    layout_seq lo4[2] = { LAYOUT_SEQ(1, 0), LAYOUT_SEQ(2, 3) }, up4[2] = { LAYOUT_SEQ(0), LAYOUT_SEQ(1) };
    if (layout_transform_descriptor(&d, &d, 2, t, lo4, up4, &err)) goto fail;
    layout_desc_print(&d, text, sizeof text);
    printf("kernel 08 descriptor:\n%s\n", text);
    if (print_grid("kernel 08: XOR [M = 64, K = 32], 32 banks", &d)) goto fail;
    return 0;
fail:
    fprintf(stderr, "demo: %s\n", err.message);
    return 1;
}
