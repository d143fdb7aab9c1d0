/* The CMake consumer (tests/cmake_consumer/CMakeLists.txt): compiled and
 * linked against an installed liblayout through find_package(layout), once
 * with layout::layout (static) and once with layout::layout_shared.
 * Known answers: the README's kernel 03 (seed talk: a 64x32 fp16 tile with
 * rows padded to 34 elements) gives offset(3, 5) = 3*34 + 5 = 107, and the
 * text form of the same layout gives every offset m*34 + k; the bank of
 * element (1, 0) on gfx942 (32 banks of 4 bytes) is (34*2/4) % 32 = 17. */
#include <layout.h>

#include <math.h>
#include <stdio.h>

int main(void)
{
    layout_descriptor d;
    layout_error err;
    layout_arch arch;
    int64_t lengths[2] = {64, 32}, strides[2] = {34, 1}, mk[2] = {3, 5}, off = -1;
    if (layout_naive(&d, 2, lengths, strides, &err) != LAYOUT_OK ||
        layout_desc_offset(&d, mk, &off, &err) != LAYOUT_OK) {
        fprintf(stderr, "cmake consumer: %s\n", err.message);
        return 1;
    }
    if (off != 107) {
        fprintf(stderr, "cmake consumer: offset(3, 5) = %lld, expected 107\n", (long long)off);
        return 1;
    }
    if (layout_desc_from_text("naive([64,32],[34,1])", &d, NULL, &err) != LAYOUT_OK) {
        fprintf(stderr, "cmake consumer: %s\n", err.message);
        return 1;
    }
    for (int64_t m = 0; m < 64; m++)
        for (int64_t k = 0; k < 32; k++) {
            int64_t c[2] = {m, k};
            if (layout_desc_offset(&d, c, &off, &err) != LAYOUT_OK || off != m * 34 + k) {
                fprintf(stderr, "cmake consumer: text form offset(%lld, %lld) = %lld\n", (long long)m, (long long)k,
                        (long long)off);
                return 1;
            }
        }
    if (layout_arch_preset("gfx942", &arch, &err) != LAYOUT_OK) {
        fprintf(stderr, "cmake consumer: %s\n", err.message);
        return 1;
    }
    if ((34 * 2 / arch.bank_width_bytes) % arch.n_banks != 17) {
        fprintf(stderr, "cmake consumer: gfx942 has %d banks of %d bytes\n", arch.n_banks, arch.bank_width_bytes);
        return 1;
    }
    {
        /* -lm comes with the imported target (volatile: no constant folding). */
        volatile double square = 11449.0;
        if (lround(sqrt(square)) != 107) return 1;
    }
    puts("cmake consumer: find_package(layout) found the installed liblayout; kernel 03 offset (3,5) = 107");
    return 0;
}
