/* `layout`: ask liblayout about a layout from the command line.
 * Dispatches to one subcommand per file (tools/cmd_*.c). */
#include "tool.h"

#include <string.h>

#ifndef LAYOUT_VERSION
#define LAYOUT_VERSION "0.1.0"
#endif

static const tool_command *const k_commands[] = {
    &tool_cmd_offsets, &tool_cmd_banks, &tool_cmd_verify, &tool_cmd_check, &tool_cmd_cost, &tool_cmd_arch,
    &tool_cmd_print,
    &tool_cmd_convert, /* docs/dialects.md */

    &tool_cmd_suggest,
    &tool_cmd_emit,
    &tool_cmd_calibrate,
    &tool_cmd_triton,
};
#define N_COMMANDS (sizeof k_commands / sizeof k_commands[0])

static void main_usage(FILE *f)
{
    size_t i;
    fprintf(f,
            "usage: layout <command> [options]\n"
            "       layout --version | --help\n"
            "\n"
            "Bank conflicts and offsets of GPU shared-memory (LDS) layouts written in\n"
            "liblayout's ck_tile-shaped text form, e.g.\n"
            "  layout offsets 'packed([4,8])'\n"
            "  layout banks 'naive([64,32],[34,1])' --arch gfx942 --elem 2 --svg banks.svg\n"
            "\n"
            "commands:\n");
    {   /* the summaries in one column, after the longest name */
        int width = 0;
        for (i = 0; i < N_COMMANDS; i++)
            if ((int)strlen(k_commands[i]->name) > width) width = (int)strlen(k_commands[i]->name);
        for (i = 0; i < N_COMMANDS; i++)
            fprintf(f, "  %-*s  %s\n", width, k_commands[i]->name, k_commands[i]->summary);
    }
    fprintf(f,
            "\n"
            "`layout <command> --help` describes each.  A SPEC argument may be given\n"
            "as @FILE to read it from a file (@- for standard input).\n"
            "Every command also reads Triton, CuTe, IREE and linear-layout specs\n"
            "(detected from the text, or --dialect NAME; --shape R,C where needed).\n"
            "Exit status: 0 success, 1 a finding (conflicts, verify problems; check and\n"
            "triton count conflicts of high confidence unless --strict), 2 bad input.\n");
}

int main(int argc, char **argv)
{
    size_t i;
    if (argc < 2) {
        main_usage(stderr);
        return TOOL_BAD_INPUT;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("layout (liblayout) %s\n", LAYOUT_VERSION);
        return TOOL_OK;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        if (argc > 2 && strcmp(argv[1], "help") == 0) {
            const char *names[N_COMMANDS], *near;
            for (i = 0; i < N_COMMANDS; i++)
                if (strcmp(argv[2], k_commands[i]->name) == 0) return tool_usage(k_commands[i]);
            for (i = 0; i < N_COMMANDS; i++) names[i] = k_commands[i]->name;
            near = tool_closest(argv[2], names, N_COMMANDS);
            fprintf(stderr, "layout: error: unknown command '%s'%s%s%s\n", argv[2], near ? "; did you mean " : "",
                    near ? near : "", near ? "?" : "");
            return TOOL_BAD_INPUT;
        }
        main_usage(stdout);
        return TOOL_OK;
    }
    for (i = 0; i < N_COMMANDS; i++) {
        if (strcmp(argv[1], k_commands[i]->name) == 0) {
            if (tool_wants_help(argc - 1, argv + 1)) return tool_usage(k_commands[i]);
            {
                /* --dialect / --shape are accepted by every command (docs/dialects.md). */
                int sub_argc = argc - 1;
                if (tool_take_dialect_options(k_commands[i]->name, &sub_argc, argv + 1)) return TOOL_BAD_INPUT;
                return k_commands[i]->run(sub_argc, argv + 1);
            }
        }
    }
    {
        const char *names[N_COMMANDS + 2], *near;
        for (i = 0; i < N_COMMANDS; i++) names[i] = k_commands[i]->name;
        names[N_COMMANDS] = "--help";
        names[N_COMMANDS + 1] = "--version";
        near = tool_closest(argv[1], names, N_COMMANDS + 2);
        if (near) {
            fprintf(stderr, "layout: error: unknown command '%s'; did you mean %s?\n", argv[1], near);
            fprintf(stderr, "  hint: `layout --help` lists the commands\n");
            return TOOL_BAD_INPUT;
        }
    }
    fprintf(stderr, "layout: error: unknown command '%s'\n\n", argv[1]);
    main_usage(stderr);
    return TOOL_BAD_INPUT;
}
