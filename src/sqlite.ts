// Node's built-in SQLite (node:sqlite): no native addon to compile or download. The few helpers
// better-sqlite3 had built in (transactions, pragma reads) are here, shared by the sandbox (db.ts,
// seed.ts) and the call archive (src/archive/), neither of which may import the other.
import type { DatabaseSync } from 'node:sqlite';

type Sqlite = typeof import('node:sqlite');
let sqlite: Sqlite | undefined;

/**
 * node:sqlite, loaded on first use. Node 22 prints an ExperimentalWarning when it loads; the
 * module is what Node ships, so that one warning is kept off the user's terminal (any other
 * warning still goes through).
 */
function loadSqlite(): Sqlite {
  if (sqlite) return sqlite;
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    sqlite = process.getBuiltinModule('node:sqlite') as Sqlite;
  } finally {
    process.emitWarning = emit;
  }
  return sqlite;
}

export function openSqlite(path: string | URL, opts: { timeout?: number; readOnly?: boolean } = {}): DatabaseSync {
  const { DatabaseSync: Database } = loadSqlite();
  return new Database(path, { timeout: opts.timeout, readOnly: opts.readOnly });
}

/** One value of a pragma (`user_version`, `integrity_check`, …). */
export function pragmaValue(db: DatabaseSync, name: string): unknown {
  const row = db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined;
  return row ? Object.values(row)[0] : undefined;
}

let savepoints = 0;
/**
 * Runs `fn` in a write transaction (BEGIN IMMEDIATE: the write lock is taken at the start, so two
 * processes never both read-then-write), committed when it returns, rolled back when it throws.
 * Inside another transaction it is a savepoint of that one.
 */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  if (db.isTransaction) {
    const name = `sp${++savepoints}`;
    db.exec(`SAVEPOINT ${name}`);
    try {
      const out = fn();
      db.exec(`RELEASE ${name}`);
      return out;
    } catch (err) {
      db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw err;
    }
  }
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = fn();
    db.exec('COMMIT');
    return out;
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
