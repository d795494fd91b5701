/* fixture */
#include "low/dev/d.h"
#include "low/a.h"
