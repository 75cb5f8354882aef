// The SQLite helpers live in src/sqlite.ts, shared with the call archive; this path stays for
// the sandbox modules and tests that import it.
export { openSqlite, pragmaValue, transaction } from '../sqlite.js';
