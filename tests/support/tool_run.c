/* Running the `layout` tool from a test (tool_run.h). */
#define _POSIX_C_SOURCE 200809L
#include "tool_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

size_t tool_slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f) {
        n = fread(buf, 1, cap - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    return n;
}

int tool_runv(const tool_runner *r, const char *fmt, va_list ap)
{
    static char args[1 << 16], cmd[1 << 17];
    int st;
    vsnprintf(args, sizeof args, fmt, ap);
    snprintf(cmd, sizeof cmd, "%s%s'%s' %s%s%s >'%s' 2>'%s'", r->env ? r->env : "", r->env ? " " : "", r->tool, args,
             r->stdin_redirect ? " " : "", r->stdin_redirect ? r->stdin_redirect : "", r->out_path, r->err_path);
    st = system(cmd);
    tool_slurp(r->out_path, r->out, r->out_cap);
    tool_slurp(r->err_path, r->err, r->err_cap);
    if (r->remove_files) {
        remove(r->out_path);
        remove(r->err_path);
    }
    if (st == -1 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

int tool_run(const tool_runner *r, const char *fmt, ...)
{
    va_list ap;
    int st;
    va_start(ap, fmt);
    st = tool_runv(r, fmt, ap);
    va_end(ap);
    return st;
}
