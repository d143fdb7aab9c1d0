/* Seed 000 tutorial 05: XOR plus one element of padding.  Builds the kernel with examples/seed_kernels.h
 * and prints its LDS views, distributions, instructions and predicted counters. */
#include "seed_example.h"

int main(void)
{
    return seed_example_run(SEED_K05,
                            "XOR + pad: conflict-free, but ck_tile's b128 store is misaligned");
}
