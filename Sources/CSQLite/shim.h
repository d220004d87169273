#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline void (*csqlite_transient(void))(void *) { return (void (*)(void *))-1; }

// sqlite3_db_config is variadic, which Swift cannot call. Turns off SQLite's legacy reading
// of a double-quoted name that is no column as a string literal, in queries and in schema
// statements: `WHERE "colour" = 'colour'` is then an error, not true for every row.
static inline int csqlite_refuse_double_quoted_strings(sqlite3 *db) {
    int code = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    if (code != SQLITE_OK) return code;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}
