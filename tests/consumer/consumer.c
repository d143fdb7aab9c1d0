/* A tiny program built outside the tree through pkg-config by .ci/run:
 * proves that an installed liblayout can be found, compiled against and linked. */
#include <layout.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    if (strcmp(layout_status_name(LAYOUT_OK), "LAYOUT_OK") != 0) return 1;
    puts("consumer: linked liblayout via pkg-config");
    return 0;
}
