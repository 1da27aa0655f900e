#include <sqlite3.h>
#include "SQLiteSettings.h"

// `sqlite3_config` takes variable arguments, which Swift cannot call; it is refused once SQLite
// has initialised, at the first connection's opening.
//  - Multi-thread mode: a connection takes no mutex of its own on every call (step, bind, reset,
//    column), which Debian's build (THREADSAFE=1) otherwise does. GRDB already lets one thread
//    at a time use a connection, and supports no other mode.
//  - No memory statistics: with them, every allocation of every connection (Debian's build has
//    no lookaside, so every small one) passes one process-wide mutex.
int juicemaker_sqlite_configure(void) {
    int result = sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
    if (result != SQLITE_OK) return result;
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
