/**
 * @file layout.h
 * @brief liblayout umbrella header: include this one.
 *
 * (The tutorial opening this header is written with the descriptor layer.)
 */
#ifndef LAYOUT_H
#define LAYOUT_H

#include "layout/status.h"
#include "layout/limits.h"
#include "layout/transform.h"
#include "layout/adaptor.h"
#include "layout/descriptor.h"
#include "layout/plan.h"
#include "layout/text.h"
#include "layout/instr.h"
#include "layout/arch.h"
#include "layout/check.h"
#include "layout/distribution.h"
#include "layout/access.h"
#include "layout/kernel.h"

#endif /* LAYOUT_H */
