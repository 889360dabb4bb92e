#ifndef UNCENTER_CSQLITE_SHIM_H
#define UNCENTER_CSQLITE_SHIM_H
#include <sqlite3.h>
#include "walbuffer.h"

/* SQLITE_TRANSIENT is a macro Swift cannot import: a destructor value of -1. */
static inline sqlite3_destructor_type uncenter_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
