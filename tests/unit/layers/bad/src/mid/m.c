/* fixture: calls low/ (allowed), and low/ calls it (upward) */
#include "m_int.h"
#include "low/a.h"
