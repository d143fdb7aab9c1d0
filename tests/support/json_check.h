/* A small JSON grammar check for the tests of the tool's and the HTML
 * page's JSON output (test_tool.c, test_html.c): RFC 8259's values,
 * strings with their escapes, integers (no fraction or exponent: the
 * library prints none).  Reads only; thread-safe. */
#ifndef LAYOUT_TEST_JSON_CHECK_H
#define LAYOUT_TEST_JSON_CHECK_H

/* Past JSON whitespace at p. */
const char *json_check_ws(const char *p);

/* Past one JSON value starting at p (after whitespace), or NULL when none
 * is there.  ascii_only: a string byte of 0x7f or above is refused too
 * (the HTML page's data block is plain ASCII). */
const char *json_check_value(const char *p, int ascii_only);

/* Whether text is exactly one JSON value (whitespace around it allowed). */
int json_check_valid(const char *text, int ascii_only);

#endif
