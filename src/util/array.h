/*
 * ARRAY_SIZE(a): the number of elements of the array a, as a constant
 * expression. Handing it a pointer (an array parameter, a malloc'd buffer)
 * is a compile error rather than a silent sizeof(pointer) / sizeof(elem):
 * the second term is the size of a char array whose length is negative
 * unless a and &a[0] have different types, which they have only for an
 * array.
 */
#ifndef IOBENCH_UTIL_ARRAY_H
#define IOBENCH_UTIL_ARRAY_H

#define IOB_MUST_BE_ARRAY(a) \
	(sizeof(char[1 - 2 * __builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0]))]) - 1)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + IOB_MUST_BE_ARRAY(a))

#endif
