/* Seed 000 tutorial 04: XOR descriptor read with 01's distribution.  Builds the kernel with examples/seed_kernels.h
 * and prints its LDS views, distributions, instructions and predicted counters. */
#include "seed_example.h"

int main(void)
{
    return seed_example_run(SEED_K04,
                            "XOR with 32 banks hard-coded and the column read: 192 conflict cycles per tile");
}
