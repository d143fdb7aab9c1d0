/* libFuzzer target for the text parsers (text.h): descriptors,
 * distributions and architectures, each input tried as all three.
 *
 * Any input must parse or fail cleanly (a status, an error offset inside
 * the text, a caret drawn at it); whatever parses must print, and the
 * printed text must parse back to a descriptor that prints identically. */
#include "layout.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_desc(const char *text)
{
    layout_descriptor d, back;
    layout_error e;
    size_t where = (size_t)-1;
    char t1[LAYOUT_TEXT_CAP], t2[LAYOUT_TEXT_CAP], caret[2 * LAYOUT_TEXT_CARET_WIDTH + 16];
    layout_status st = layout_desc_from_text(text, &d, &where, &e);
    if (st != LAYOUT_OK) {
        if (where > strlen(text)) abort();                     /* the spot lies in the text */
        if (strncmp(e.message, "layout_desc_from_text: ", 23) != 0) abort();
        if (layout_text_caret(text, where, caret, sizeof caret, NULL) != LAYOUT_OK) abort();
        return;
    }
    if (layout_desc_to_text(&d, t1, sizeof t1, &e) != LAYOUT_OK) abort();
    if (layout_desc_from_text(t1, &back, NULL, &e) != LAYOUT_OK) abort();
    if (layout_desc_to_text(&back, t2, sizeof t2, &e) != LAYOUT_OK) abort();
    if (strcmp(t1, t2) != 0) abort();
}

static void check_arch(const char *text)
{
    layout_arch a, back;
    layout_error e;
    size_t where = (size_t)-1;
    char t1[LAYOUT_TEXT_CAP], t2[LAYOUT_TEXT_CAP];
    if (layout_arch_from_text(text, &a, &where, &e) != LAYOUT_OK) {
        if (where > strlen(text)) abort();
        if (strncmp(e.message, "layout_arch_from_text: ", 23) != 0) abort();
        return;
    }
    if (layout_arch_to_text(&a, t1, sizeof t1, &e) != LAYOUT_OK) abort();
    if (layout_arch_from_text(t1, &back, NULL, &e) != LAYOUT_OK) abort();
    if (!layout_arch_same_model(&a, &back)) abort();
    if (layout_arch_to_text(&back, t2, sizeof t2, &e) != LAYOUT_OK) abort();
    if (strcmp(t1, t2) != 0 && strncmp(t1, "arch(", 5) == 0) abort();
}

static void check_dist(const char *text)
{
    layout_distribution d, back;
    layout_error e;
    size_t where = (size_t)-1;
    char t1[LAYOUT_TEXT_CAP], t2[LAYOUT_TEXT_CAP];
    if (layout_dist_from_text(text, 0, 0, &d, &where, &e) != LAYOUT_OK) {
        if (where > strlen(text)) abort();
        if (strncmp(e.message, "layout_dist_from_text: ", 23) != 0) abort();
        return;
    }
    if (layout_dist_to_text(&d, t1, sizeof t1, &e) != LAYOUT_OK) abort();
    if (layout_dist_from_text(t1, 0, 0, &back, NULL, &e) != LAYOUT_OK) abort();
    if (back.wave_size != d.wave_size || back.n_warps != d.n_warps || back.elems_per_thread != d.elems_per_thread)
        abort();
    if (layout_dist_to_text(&back, t2, sizeof t2, &e) != LAYOUT_OK || strcmp(t1, t2) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text;
    if (size > 4096) return 0;
    text = (char *)malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    check_desc(text);
    check_arch(text);
    check_dist(text);
    free(text);
    return 0;
}
