/* Seed 000 tutorial 02: column-major LDS.  Builds the kernel with examples/seed_kernels.h
 * and prints its LDS views, distributions, instructions and predicted counters. */
#include "seed_example.h"

int main(void)
{
    return seed_example_run(SEED_K02,
                            "M contiguous: the read becomes one b128, the 8 b16 stores now conflict");
}
