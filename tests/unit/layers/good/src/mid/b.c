/* fixture */
#include "b.h"
#include "mid/b_int.h"
