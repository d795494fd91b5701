/* fixture */
#ifndef IOBENCH_LOW_DEV_D_H
#define IOBENCH_LOW_DEV_D_H
#endif
