/* The `layout` command-line tool: shared declarations of its subcommands
 * and helpers.  Not installed; the tool is a thin shell over the library. */
#ifndef LAYOUT_TOOL_H
#define LAYOUT_TOOL_H

#include "layout.h"

#include <stdint.h>
#include <stdio.h>

/* Exit statuses shared by every subcommand. */
#define TOOL_OK 0        /* success (check: conflict-free; verify: no problem) */
#define TOOL_FINDING 1   /* check: conflicts found; verify: a problem found */
#define TOOL_BAD_INPUT 2 /* bad command line or unparsable / invalid input */

/* One subcommand: name, one-line summary, usage text, entry point. */
typedef struct tool_command {
    const char *name;
    const char *summary;
    const char *usage;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
} tool_command;

extern const tool_command tool_cmd_offsets, tool_cmd_banks, tool_cmd_verify, tool_cmd_check, tool_cmd_cost,
    tool_cmd_arch, tool_cmd_print;
extern const tool_command tool_cmd_suggest;
extern const tool_command tool_cmd_emit;
extern const tool_command tool_cmd_calibrate;
extern const tool_command tool_cmd_triton;

/* Print "layout <cmd>: error: ..." to stderr; returns TOOL_BAD_INPUT. */
int tool_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Drop the library's C function names ("layout_x: ", "layout_x(): ") from
 * a message in place: the tool speaks of options and values the user
 * typed.  tool_error() and tool_report_parse() apply it. */
void tool_plain_words(char *s);

/* The name of names[0..n-1] closest to `typed` (case-insensitive edit
 * distance: 1 for up to 4 characters, 2 up to 8, else 3; a prefix of a
 * longer name counts as close), or NULL: for "did you mean". */
const char *tool_closest(const char *typed, const char *const *names, size_t n);

/* The index of `value` in names[0..n-1]; else -1 after "--opt 'x' must be
 * a, b or c; did you mean b?" (printed). */
int tool_choice(const char *cmd, const char *opt, const char *value, const char *const *names, int n);

/* Print the excerpt of `text` with a caret under byte `where` (stderr,
 * indented by two spaces), as the parse errors do. */
void tool_caret(const char *text, size_t where);

/* Print "  hint: ..." to stderr: how to fix the error just reported (the
 * same words for every command, so `check` and `emit` agree). */
void tool_hint(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The options names[0..n-1] a command needs: 0 when every values[i] is set,
 * else print "missing option --b (--a, --b and --c are required)" naming
 * exactly the missing ones, then `example` as a hint (if non-NULL), and
 * return TOOL_BAD_INPUT. */
int tool_require(const char *cmd, const char *const *names, const char *const *values, int n, const char *example);

/* After a kernel check failed: when a distribution's tile does not fit its
 * LDS view (--write vs --lds, --read vs --read-lds or --lds), print what
 * differs and how to fix it (for a read tile that permutes the write tile
 * without --read-lds: the --read-lds view to add) and return 1; else 0. */
int tool_explain_tile_mismatch(const char *cmd, const layout_descriptor *lds, const layout_descriptor *read_lds,
                               const layout_distribution *wdist, const layout_distribution *rdist);

/* 1 when argv[i] is "-h" or "--help" anywhere. */
int tool_wants_help(int argc, char **argv);

/* Print the command's usage to stdout; returns TOOL_OK. */
int tool_usage(const tool_command *cmd);

/* One option of a command: "--name VALUE" / "--name=VALUE" stores VALUE in
 * *value; a flag (value == NULL) sets *flag = 1. */
typedef struct tool_option {
    const char *name;
    const char **value;
    int *flag;
} tool_option;

/* Parse argv[1..] against opts (terminated by a NULL name); other arguments
 * are positional, at most max_pos of them into pos[] (*n_pos counts them).
 * Returns 0, or TOOL_BAD_INPUT after printing what was wrong. */
int tool_parse_args(const char *cmd, int argc, char **argv, const tool_option *opts, const char **pos, int max_pos,
                    int *n_pos);

/* Parse a decimal integer in [lo, hi]; error printed and -1 returned on failure. */
int tool_int(const char *cmd, const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out);

/* Resolve a SPEC argument: "@FILE" reads FILE ("@-" standard input) into buf;
 * anything else is the spec itself.  Returns a pointer to the text or NULL
 * after printing an error. */
const char *tool_spec_text(const char *cmd, const char *arg, char *buf, size_t cap);

/* Parse a descriptor spec; on failure print the library's message and a caret
 * under the spot.  Returns 0 or TOOL_BAD_INPUT. */
int tool_parse_desc(const char *cmd, const char *arg, layout_descriptor *out);

/* Parse --arch (a preset name, arch(...) text or @FILE); reports with a caret.
 * Returns 0 or TOOL_BAD_INPUT. */
int tool_parse_arch(const char *cmd, const char *arg, layout_arch *out);

/* The same, for an architecture given as `what` ("--arch", or the NAME
 * argument of `layout arch`: any other text). */
int tool_parse_arch_as(const char *cmd, const char *what, const char *arg, layout_arch *out);

/* Parse a distribution spec for a wave of wave_size lanes (0 = from the text). */
int tool_parse_dist(const char *cmd, const char *what, const char *arg, int wave_size, layout_distribution *out);

/* --elem BYTES: 1, 2, 4, 8 or 16.  Returns 0 or TOOL_BAD_INPUT (error printed). */
int tool_elem_bytes(const char *cmd, const char *text, int *out);

/* Print "# <what> of <canonical spec>" and "# lengths ..., element space N". */
void tool_print_desc_header(const layout_descriptor *d, const char *what);

/* Report a parse failure of `text` with the message of e and a caret at `where`. */
void tool_report_parse(const char *cmd, const char *what, const char *text, size_t where, const layout_error *e);

/* ---- vendor vocabulary: what the architecture's own tools call things ---- */

/* AMD (and unknown): "wave", "extra cycles", DS mnemonics, SQ_ counters;
 * NVIDIA: "warp", "bank conflicts", PTX mnemonics, Nsight Compute metrics. */
typedef struct tool_vocab {
    layout_vendor vendor;
    const char *unit;  /* "wave" / "warp" */
    const char *extra; /* "extra cycles" / "bank conflicts" */
} tool_vocab;

tool_vocab tool_vocab_of(const layout_arch *arch);

/* The profiler counters the checker predicts for this kernel result on
 * arch (layout_calibrate_predict(): the vendor's own names), at most max;
 * returns how many were filled. */
int tool_counters(const layout_arch *arch, const layout_kernel_result *res, layout_counter *names, int64_t *values,
                  int max);

/* ---- the lint policy of `check` and `triton` (docs/tool.md "Exit status") ---- */

/* Which conflicts make the exit status 1.  Default: only conflicts whose
 * rule is of high confidence (layout_confidence: measured or agreed by
 * several sources), so a CI gate does not fail on a rule the tool itself
 * calls a guess; --strict: every conflict; --fail-above CYCLES: only when
 * the counted conflict cycles exceed CYCLES (default 0). */
typedef struct tool_lint {
    int strict;
    const char *fail_above_text; /* --fail-above as typed, NULL: not given */
    int64_t fail_above;          /* set by tool_lint_parse() */
} tool_lint;

/* The options --strict and --fail-above CYCLES of a command's option table. */
#define TOOL_LINT_OPTIONS(l) {"--strict", NULL, &(l).strict}, {"--fail-above", &(l).fail_above_text, NULL}

/* Read --fail-above (0..2^62); 0 or TOOL_BAD_INPUT (error printed). */
int tool_lint_parse(const char *cmd, tool_lint *l);

/* 1 when conflicts of confidence c count towards the exit status. */
int tool_lint_counts(const tool_lint *l, layout_confidence c);

/* TOOL_FINDING when the counted cycles exceed the threshold, else TOOL_OK. */
int tool_lint_status(const tool_lint *l, int64_t counted);

/* One line saying why the exit status is what it is, when there are
 * conflicts at all: "lint: exit 0: none of the 16 extra cycles is of high
 * confidence (--strict counts them)".  `unit` is the vocabulary's word. */
void tool_lint_print(const tool_lint *l, int64_t all_cycles, int64_t counted, const char *unit);

/* ---- foreign dialects (docs/dialects.md) ---- */

extern const tool_command tool_cmd_convert;

/* A dialect named by the user (option `opt`): the library's names, with
 * "layout" for liblayout's own text ("ck" its older alias); "cute-cpp"
 * when cute_cpp is non-NULL (sets *cute_cpp, *out = cute).  0, or
 * TOOL_BAD_INPUT after "did you mean" (printed). */
int tool_dialect_named(const char *cmd, const char *opt, const char *name, layout_dialect *out, int *cute_cpp);

/* Remove the global options --dialect NAME and --shape R,C[,..] from argv
 * (every command accepts them); 0 or TOOL_BAD_INPUT (error printed). */
int tool_take_dialect_options(const char *cmd, int *argc, char **argv);

/* Parse "64,32" (or "64x32") into shape[]; 0 or TOOL_BAD_INPUT. */
int tool_parse_shape(const char *cmd, const char *text, int *n, int64_t *shape);

/* The dialect of a spec: --dialect, else detected from the text. */
layout_dialect tool_spec_dialect(const char *text);

/* The --shape values (NULL and *n = 0 when not given). */
const int64_t *tool_shape(int *n);

/* Read a foreign-dialect descriptor / distribution with --shape. */
layout_status tool_desc_from_dialect(layout_dialect d, const char *text, layout_descriptor *out, size_t *where,
                                     layout_error *e);
layout_status tool_dist_from_dialect(layout_dialect d, const char *text, layout_distribution *out, size_t *where,
                                     layout_error *e);

#endif /* LAYOUT_TOOL_H */
