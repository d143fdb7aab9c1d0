/* Status names and the error record contract. */
#include "harness.h"
#include "layout.h"

static void test_status_names(void)
{
    CHECK(strcmp(layout_status_name(LAYOUT_OK), "LAYOUT_OK") == 0);
    CHECK(strcmp(layout_status_name(LAYOUT_ERR_ARG), "LAYOUT_ERR_ARG") == 0);
    CHECK(strcmp(layout_status_name(LAYOUT_ERR_MISMATCH), "LAYOUT_ERR_MISMATCH") == 0);
    CHECK(strcmp(layout_status_name((layout_status)-999), "LAYOUT_ERR_UNKNOWN") == 0);
    CHECK(!layout_is_error(LAYOUT_OK));
    CHECK(layout_is_error(LAYOUT_ERR_NULL));
}

int main(void)
{
    RUN(test_status_names);
    return harness_finish("test_status");
}
