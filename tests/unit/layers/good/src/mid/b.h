/* fixture */
#ifndef IOBENCH_MID_B_H
#define IOBENCH_MID_B_H
#include "low/dev/d.h"
#include "low/a.h"
#endif
