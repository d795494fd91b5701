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
#ifndef IOBENCH_SWEEP_SWEEP_OPERANDS_H
#define IOBENCH_SWEEP_SWEEP_OPERANDS_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep/sweep_plan.h"
#include "sys/dev/devguard.h"

/* The block devices a sweep's operands may name. */
struct sweep_operand_allow {
	const char *const *devs;             /* the sweep's own devices */
	size_t ndev;
	const struct devguard_allow *allow;  /* --allow-destroy, or NULL */
};

/* Check one operand text (a word, or with shell a shell command line).
 * 0, or -1 with why naming the word and the device it reaches. *off is
 * set to the offset of the word in text (may be NULL). */
int sweep_operands_word_check(const char *text, bool shell, const struct sweep_operand_allow *al,
			      size_t *off, char *why, size_t whylen);
/* The same, for a step about to run. */
int sweep_operands_text(const char *text, bool shell, const struct sweep_operand_allow *al,
			char *why, size_t whylen);
/* Plan time: every text of p that reaches a program, with its {FACTOR}s
 * expanded to each level. 0, or -EINVAL after printing every refusal as
 * PLAN:LINE:COL. */
int sweep_operands_check(const struct sweep_plan *p, const struct devguard_allow *allow);

#endif
