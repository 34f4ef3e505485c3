// CSQLite: SQLite's C API as GeofencingStore sees it.
//
// Swift imports <sqlite3.h> directly except what is a macro cast or a variadic function; each shim below says which
// of the two it stands in for.
#ifndef CSQLITE_H
#define CSQLITE_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a destructor pointer, which does not import: bound text and blobs are copied
// by SQLite.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call. SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE (SQLite 3.16+): closing
// the connection does not checkpoint the -wal file into the database. The store sets it when it refuses a file, so
// that a damaged or foreign file keeps every byte, its -wal included. Returns SQLITE_OK or an error code.
static inline int csqlite_disable_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif
