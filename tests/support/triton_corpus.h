/* The corpus of real Triton 3.6 kernels (tests/fixtures/triton/kernels/,
 * one NAME.ttgir each) as the tests that run over all of it read it:
 * shared by test_triton_apply.c and test_triton_suggest.c. */
#ifndef LAYOUT_TEST_TRITON_CORPUS_H
#define LAYOUT_TEST_TRITON_CORPUS_H

#include <stddef.h>
#include <stdio.h>

/* The corpus folder beside the test source `file` (the test's __FILE__):
 * DIR/fixtures/triton/kernels, DIR the folder of `file` ("." when it has
 * none). */
void triton_corpus_dir(const char *file, char *dir, size_t cap);

/* dir/NAME.ttgir into buf: at most cap - 1 bytes, NUL-terminated (empty
 * when it cannot be read).  Returns the bytes read. */
size_t triton_corpus_load(const char *dir, const char *name, char *buf, size_t cap);

/* The kernels' names in ls order: open the listing (NULL when it cannot
 * run), take the next name (1; 0 at the end) into name (without
 * ".ttgir"), close it with pclose(). */
FILE *triton_corpus_open(const char *dir);
int triton_corpus_next(FILE *ls, char *name, size_t cap);

/* The arch preset the corpus tests also run a kernel of `target` on (its
 * neighbour: gfx942 <-> gfx950, sm_90 -> sm_80), NULL for another target. */
const char *triton_corpus_neighbour(const char *target);

#endif /* LAYOUT_TEST_TRITON_CORPUS_H */
