/* fixture: an excused upward include */
#include "a.h"
#include "top/t.h"
