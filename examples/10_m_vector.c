/* Seed 000 tutorial 10: M-vector read.  Builds the kernel with examples/seed_kernels.h
 * and prints its LDS views, distributions, instructions and predicted counters. */
#include "seed_example.h"

int main(void)
{
    return seed_example_run(SEED_K10,
                            "08's layout read along M: 8 b16 reads, clean on gfx950 only");
}
