/*
 * The operands a sweep hands to other programs (mkfs, mount, losetup, the
 * setup and teardown templates, the command, bonnie and quick) may name no
 * block device but the sweep's own: its targets and the devices named by
 * --allow-destroy. Every word is looked at as a whole, after an '=' (an
 * `--opt=/dev/x` or `opt=/dev/x` word) and in each part of a comma list
 * (mount's `device=/dev/x,...`); a shell line is split at blanks and at
 * ; & | < > ( ) and backquotes. A word that reaches a block device (after
 * symbolic links, so /dev/disk/by-* names too) is refused: at plan time,
 * with the plan's line and column, before anything changes, and again as
 * each step runs with the real {dev}, {devs} and {mnt}.
 */
#ifndef IOBENCH_SWEEP_SWEEP_OPERANDS_INT_H
#define IOBENCH_SWEEP_SWEEP_OPERANDS_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep/sweep_plan_int.h"
#include "sys/dev/devguard.h"
#include "sys/dev/devoperand.h"

/* Plan time: every text of p that reaches a program, with its {FACTOR}s
 * expanded to each level. 0, or -EINVAL after printing every refusal as
 * PLAN:LINE:COL. */
int sweep_operands_check(const struct sweep_plan *p, const struct devguard_allow *allow);

#endif
