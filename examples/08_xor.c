/* Seed 000 tutorial 08: XOR done right.  Builds the kernel with examples/seed_kernels.h
 * and prints its LDS views, distributions, instructions and predicted counters. */
#include "seed_example.h"

int main(void)
{
    return seed_example_run(SEED_K08,
                            "XOR with MLdsLayer from the bank count and a K-vector read: one b128 each way");
}
