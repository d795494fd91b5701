/* fixture: includes low (not listed), a folder in no row, mid/'s _int.h */
#include "mid/b.h"
#include "low/a.h"
#include "nowhere/x.h"
#include "mid/m_int.h"
