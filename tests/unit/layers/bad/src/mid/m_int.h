/* fixture: internal to mid/ */
#ifndef IOBENCH_MID_M_INT_H
#define IOBENCH_MID_M_INT_H
#endif
