/* fixture: includes low, which its row does not list, and a folder in no row */
#include "mid/b.h"
#include "low/a.h"
#include "nowhere/x.h"
