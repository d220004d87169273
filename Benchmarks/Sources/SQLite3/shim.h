#include <sqlite3.h>

// The sqlite3 C API for the persistence benchmark's floor, with the two helpers Swift
// cannot do itself (the same ones the Persistence module uses).

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline void (*floor_sqlite_transient(void))(void *) { return (void (*)(void *))-1; }

// sqlite3_db_config is variadic, which Swift cannot call: the same pragmas as the library
// (no double-quoted string literals, in queries and in schema statements).
static inline int floor_sqlite_refuse_double_quoted_strings(sqlite3 *db) {
    int code = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    if (code != SQLITE_OK) return code;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}
