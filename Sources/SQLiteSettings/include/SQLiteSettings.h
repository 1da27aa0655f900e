#ifndef JUICEMAKER_SQLITE_SETTINGS_H
#define JUICEMAKER_SQLITE_SETTINGS_H

/// SQLite's process-wide settings for the shop; see SQLiteSettings.c. Returns SQLite's result
/// code: SQLITE_OK (0), or SQLITE_MISUSE once a connection has been opened.
int juicemaker_sqlite_configure(void);

#endif
