/* fixture */
#ifndef IOBENCH_LOW_A_H
#define IOBENCH_LOW_A_H
#include "low/dev/d.h"
#endif
