/* Running the `layout` tool as a program from a test: the command line is
 * shell text, stdout and stderr are captured through two files and read
 * back into the caller's buffers.  Shared by the tests of the tool's
 * commands (test_vocab.c, test_dialect_cli.c, test_tool_triton.c).  Not
 * thread-safe (one static command buffer). */
#ifndef LAYOUT_TEST_TOOL_RUN_H
#define LAYOUT_TEST_TOOL_RUN_H

#include <stdarg.h>
#include <stddef.h>

/* Exit codes of a sanitizer report in the child (AddressSanitizer 86,
 * UndefinedBehaviorSanitizer 87, halting on the first report): a shell
 * prefix for tool_runner.env. */
#define TOOL_RUN_SANITIZER_ENV "ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=87"

typedef struct tool_runner {
    const char *tool;     /* path of the layout binary */
    const char *env;      /* shell text before the command (NULL: none) */
    const char *stdin_redirect; /* shell text after the arguments, e.g. "</dev/null" (NULL: none) */
    const char *out_path; /* the files stdout and stderr go to */
    const char *err_path;
    int remove_files;     /* 1: remove them once read back */
    char *out;            /* stdout of the last run, NUL-terminated */
    size_t out_cap;
    char *err;            /* stderr of the last run, NUL-terminated */
    size_t err_cap;
} tool_runner;

/* Read the file at path into buf: at most cap - 1 bytes, NUL-terminated
 * (empty when it cannot be read).  Returns the bytes read. */
size_t tool_slurp(const char *path, char *buf, size_t cap);

/* Run `ENV 'TOOL' ARGS STDIN >OUT 2>ERR` (ARGS: fmt formatted, shell
 * text), then read OUT and ERR back into r->out and r->err.  Returns the
 * exit status, or -1 when the shell could not run or the tool did not
 * exit (a signal). */
int tool_run(const tool_runner *r, const char *fmt, ...);
int tool_runv(const tool_runner *r, const char *fmt, va_list ap);

#endif /* LAYOUT_TEST_TOOL_RUN_H */
