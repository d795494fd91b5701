/* fixture: the bottom */
#ifndef A_H
#define A_H
#endif
