/* layout print SPEC: the canonical text of a spec. */
#include "tool.h"

#include <string.h>

static int run(int argc, char **argv);

const tool_command tool_cmd_print = {
    "print", "parse a descriptor spec and print its canonical text",
    "usage: layout print SPEC\n"
    "\n"
    "Parse the descriptor SPEC and print its canonical text (no comments,\n"
    "fixed spacing, aligned() written as the equal naive(), the top dims of\n"
    "intermediate stages renumbered: a dim keeps its position where it can).\n"
    "Parsing the output gives the same descriptor.\n"
    "\n"
    "example: layout print 'aligned([4,5], align=4)'   ->   naive([4,5],[8,1])\n",
    run};

static int run(int argc, char **argv)
{
    layout_descriptor d;
    layout_error e;
    char text[LAYOUT_TEXT_CAP];
    if (argc != 2) return tool_error("print", "expected exactly one SPEC (see layout print --help)");
    if (tool_parse_desc("print", argv[1], &d)) return TOOL_BAD_INPUT;
    if (layout_desc_to_text(&d, text, sizeof text, &e)) return tool_error("print", "%s", e.message);
    printf("%s\n", text);
    return TOOL_OK;
}
