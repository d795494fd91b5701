/* fixture */
#ifndef IOBENCH_TOP_T_H
#define IOBENCH_TOP_T_H
#endif
