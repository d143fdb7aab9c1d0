/* Private to lib/text: shared between the descriptor text parser and
 * printer.  What the dialects need of a descriptor's text form is
 * text_desc_shape.h.  Not installed. */
#ifndef LAYOUT_TEXT_DESC_INTERNAL_H
#define LAYOUT_TEXT_DESC_INTERNAL_H

#include "layout/descriptor.h"
#include "text_desc_shape.h"

/* Canonical text name of a transform kind ("pass", "merge3", ...), NULL if none. */
const char *layout_text_transform_name(layout_transform_kind kind);

#endif /* LAYOUT_TEXT_DESC_INTERNAL_H */
