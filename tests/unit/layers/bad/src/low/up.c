/* fixture: an upward include */
#include "a.h"
#include <stdio.h>

#include "mid/b.h"
