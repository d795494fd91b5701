/* fixture */
#include "b.h"
