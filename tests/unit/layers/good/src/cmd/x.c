/* fixture */
#include "low/dev/d.h"
#include "mid/b.h"
#include "top/t.h"
