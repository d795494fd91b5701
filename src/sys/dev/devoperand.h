/*
 * Which block devices the operands of a program iobench runs name (mkfs,
 * mount, a sweep's templates and command, a job's exec_prerun): every
 * word is looked at as a whole, after its first '=' (`--opt=/dev/x`,
 * `of=/dev/x`) and in each part of a comma list (`device=/dev/x,...`); a
 * shell line is split at blanks and at ; & | < > ( ) and backquotes, its
 * quotes and backslashes undone. A word that resolves to a block device
 * (stat, following symbolic links, so /dev/disk/by-* names too) other
 * than the devices the caller allows and those --allow-destroy names is
 * refused.
 */
#ifndef IOBENCH_SYS_DEV_DEVOPERAND_H
#define IOBENCH_SYS_DEV_DEVOPERAND_H

#include <stdbool.h>
#include <stddef.h>

#include "sys/dev/devguard.h"

struct devoperand_allow {
	const char *const *devs;             /* devices that may be named (paths) */
	size_t ndev;
	const struct devguard_allow *allow;  /* --allow-destroy, or NULL */
	const char *whose;                   /* what devs are, for the message ("a target
						of the sweep"); NULL: "one of the devices
						offered" */
};

/* Check text (one word, or with shell a shell command line): 0, or -1
 * with why naming the word and the device it reaches, and *off (may be
 * NULL) the offset of that word in text. */
int devoperand_check(const char *text, bool shell, const struct devoperand_allow *al, size_t *off,
		     char *why, size_t whylen);

#endif
