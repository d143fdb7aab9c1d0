/* Seed 000 tutorial 01: row-major LDS, transposed read.  Builds the kernel with examples/seed_kernels.h
 * and prints its LDS views, distributions, instructions and predicted counters. */
#include "seed_example.h"

int main(void)
{
    return seed_example_run(SEED_K01,
                            "packed rows: the b128 store is clean, the column read hits one bank 8 ways");
}
