/* fixture */
#include "low/a.h"
