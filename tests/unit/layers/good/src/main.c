/* fixture */
#include "cmd/x.h"
