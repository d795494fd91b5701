/*
 * errno values by name and back ("EIO" <-> 5), for options that take a list
 * of errors (ignore_error, faulty_errno) and for messages. Names are the
 * C library's own (strerrorname_np), so every errno Linux has is known.
 */
#ifndef IOBENCH_UTIL_ERRNAME_H
#define IOBENCH_UTIL_ERRNAME_H

/* "EIO", "eio" or "5": the positive errno; -EINVAL for an unknown name or
 * a number outside 1..4095. */
int errno_parse(const char *s);
/* "EIO" for 5; "E?" for a value without a name. */
const char *errno_name(int err);

#endif
