/* Seed 000 tutorial 03: rows padded to 34 fp16.  Builds the kernel with examples/seed_kernels.h
 * and prints its LDS views, distributions, instructions and predicted counters. */
#include "seed_example.h"

int main(void)
{
    return seed_example_run(SEED_K03,
                            "68-byte rows: conflicts drop, the store is split into two write2_b32");
}
