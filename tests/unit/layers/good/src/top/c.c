/* fixture */
#include "top/t.h"
#include "mid/b.h"
  #  include "low/a.h"
#include <stdio.h>
