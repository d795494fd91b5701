/* fixture */
#include "low/dev/d.h"
