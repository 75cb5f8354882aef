// Writing calls into the archive: the narrow row, the record (compressed in blocks: blocks.ts),
// the full-text index and the quarter-hour rollup, kept in step in the caller's transaction.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Call } from '../api/schemas.js';
import { viewCall } from '../api/records.js';
import { sentText } from '../api/sent-text.js';
import { BUCKET_MS, DIM, SLOTS, blocksOf, byKey, latencyText, nameOf } from './schema.js';
import { BLOCK_RECORDS, BLOCK_SLOTS, refOf } from './blocks.js';
import { ftsText } from './fts.js';
import type { Row } from './query.js';

export interface WriteCounts {
  added: number;
  updated: number;
  unchanged: number;
}

/** A call's row as it was before this write: the list fields and where its record is. */
type OldRow = Omit<Row, 'id'> & { record: number };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const timeOf = (c: Call) => {
  const t = Date.parse(c.createdAt);
  return Number.isNaN(t) ? 0 : t;
};

/** Whether the service is done with a call (its record will not change again). */
export function callEnded(c: Call): boolean {
  return c.status === 'ended' || (typeof c.endedAt === 'string' && c.endedAt !== '');
}

/** A record's JSON text on one line: a raw newline in JSON is whitespace between tokens (never inside a string), so a space keeps the value. */
const oneLine = (json: string) => (json.includes('\n') ? json.replace(/\n/g, ' ') : json);

/** The text a call's record gave the full-text index (its view's), to take it out again. */
function textOf(json: string | undefined): { transcript: string | null; summary: string | null } {
  let v;
  try {
    v = json === undefined ? undefined : viewCall(JSON.parse(json) as Call);
  } catch {
    v = undefined;
  }
  return { transcript: ftsText(v?.transcript), summary: ftsText(v?.summary) };
}

export class CallWriter {
  private readonly s: Record<string, StatementSync>;
  /** The millisecond (× SLOTS) and rowid of the last insert of this write. */
  private slotBase = -1;
  private slotLast = -1;
  /** The lowest and highest rowid held when this write began (null: none). */
  private heldLow: number | null = null;
  private heldHigh: number | null = null;
  private readonly names = new Map<string, number>();

  constructor(private readonly db: DatabaseSync) {
    this.s = {
      old: db.prepare(
        `SELECT rowid, record, ${nameOf('assistant')} AS assistant_id, ${nameOf('number')} AS phone_number_id, type, status, ended_reason, cost, duration, ` +
          `created_at, customer_name, customer_number FROM calls WHERE ${byKey('id')}`,
      ),
      lastSlot: db.prepare('SELECT max(rowid) AS r FROM calls WHERE rowid BETWEEN ? AND ?'),
      held: db.prepare('SELECT (SELECT min(rowid) FROM calls) AS low, (SELECT max(rowid) FROM calls) AS high'),
      insert: db.prepare(
        `INSERT INTO calls (rowid, id, created_at, assistant, number, type, status, ended_reason, cost, duration,
           customer_number, customer_name, ended, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      update: db.prepare(
        `UPDATE calls SET assistant = ?, number = ?, type = ?, status = ?, ended_reason = ?, cost = ?, duration = ?,
           customer_number = ?, customer_name = ?, ended = ?, record = ? WHERE rowid = ?`,
      ),
      deleteCall: db.prepare('DELETE FROM calls WHERE rowid = ?'),
      latencyDelete: db.prepare('DELETE FROM latency WHERE rowid = ?'),
      latencyInsert: db.prepare('INSERT OR REPLACE INTO latency (rowid, turns) VALUES (?, ?)'),
      addName: db.prepare('INSERT OR IGNORE INTO names (value) VALUES (?)'),
      name: db.prepare('SELECT rowid FROM names WHERE value = ?'),
      ftsInsert: db.prepare('INSERT INTO call_fts (rowid, transcript, summary, customer_name, customer_number) VALUES (?, ?, ?, ?, ?)'),
      ftsDelete: db.prepare(`INSERT INTO call_fts (call_fts, rowid, transcript, summary, customer_name, customer_number) VALUES ('delete', ?, ?, ?, ?, ?)`),
      rollup: db.prepare(
        `INSERT INTO rollup (dim, bucket, key, calls, seconds, cost) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (dim, bucket, key) DO UPDATE SET calls = calls + excluded.calls, seconds = seconds + excluded.seconds, cost = cost + excluded.cost`,
      ),
      rollupSweep: db.prepare('DELETE FROM rollup WHERE dim = ? AND bucket = ? AND key = ? AND calls <= 0'),
    };
  }

  /** Adds or replaces `calls` (by id). Run inside a transaction. */
  write(calls: readonly Call[]): WriteCounts {
    const counts: WriteCounts = { added: 0, updated: 0, unchanged: 0 };
    // This write's records, compressed at the end into blocks from `first` on; a ref into them
    // (the same id twice in one write) reads and releases the text in hand.
    const blocks = blocksOf(this.db);
    const first = blocks.nextBlock();
    const pending: string[] = [];
    const pendingAt = (ref: number) => (Math.floor(ref / BLOCK_SLOTS) - first) * BLOCK_RECORDS + (ref % BLOCK_SLOTS);
    const records = {
      get: (ref: number) => (ref >= first * BLOCK_SLOTS ? pending[pendingAt(ref)] : blocks.record(ref)),
      release: (ref: number) => (ref >= first * BLOCK_SLOTS ? (pending[pendingAt(ref)] = '') : blocks.release(ref)),
      add: (json: string) => refOf(first, pending.push(json) - 1),
    };
    // Rollup changes per dimension, quarter hour and value, applied once per write.
    const delta = Object.values(DIM).map(() => new Map<number, Map<string, [number, number, number]>>());
    const bump = (dim: number, bucket: number, key: string | null, sign: number, seconds: number, cost: number) => {
      let byKey = delta[dim].get(bucket);
      if (!byKey) delta[dim].set(bucket, (byKey = new Map()));
      const d = byKey.get(key ?? '');
      if (d) {
        d[0] += sign;
        d[1] += sign * seconds;
        d[2] += sign * cost;
      } else byKey.set(key ?? '', [sign, sign * seconds, sign * cost]);
    };
    const add = (
      sign: 1 | -1,
      createdAt: number,
      r: { assistant: string | null; number: string | null; status: string | null; reason: string | null; type: string | null; seconds: number; cost: number },
    ) => {
      const bucket = Math.floor(createdAt / BUCKET_MS);
      bump(DIM.all, bucket, '', sign, r.seconds, r.cost);
      bump(DIM.assistant, bucket, r.assistant, sign, r.seconds, r.cost);
      bump(DIM.number, bucket, r.number, sign, r.seconds, r.cost);
      bump(DIM.status, bucket, r.status, sign, r.seconds, r.cost);
      bump(DIM.endedReason, bucket, r.reason, sign, r.seconds, r.cost);
      bump(DIM.type, bucket, r.type, sign, r.seconds, r.cost);
    };
    this.slotBase = -1;
    this.slotLast = -1;
    ({ low: this.heldLow, high: this.heldHigh } = this.s.held.get() as { low: number | null; high: number | null });
    let sweep = false;
    // Oldest first (ties by id, so slots follow the service order): pages arrive newest first,
    // and a b-tree filled in descending key order
    // leaves its pages half empty (a larger file, slower writes).
    // Each timestamp parsed once, not in every comparison.
    const ordered = calls
      .map((call) => ({ call, at: timeOf(call) }))
      .sort((a, b) => a.at - b.at || (a.call.id < b.call.id ? -1 : a.call.id > b.call.id ? 1 : 0));
    for (const { call, at } of ordered) {
      // Stored as the service sent it (the export escapes it where it meets a terminal), on one line of its block.
      const json = oneLine(sentText(call));
      const createdAt = Math.max(0, at);
      const old = this.s.old.get(call.id, call.id) as OldRow | undefined;
      const oldJson = old ? records.get(old.record) : undefined;
      if (old && oldJson === json) {
        counts.unchanged++;
        continue;
      }
      // The record's view, made once: the indexed columns and text are what every reader sees
      // (the text view's SQL functions derive the same text from the stored record).
      const v = viewCall(call);
      const row = {
        assistant: str(v.assistantId),
        number: str(v.phoneNumberId),
        type: str(v.type),
        status: str(v.status),
        reason: str(v.endedReason),
        cost: num(v.cost),
        seconds: num(v.durationSeconds),
        customerNumber: str(v.customer?.number),
        customerName: str(v.customer?.name),
        ended: callEnded(call) ? 1 : 0,
      };
      const transcript = ftsText(v.transcript);
      const summary = ftsText(v.summary);
      let rowid: number;
      if (old) {
        this.s.latencyDelete.run(old.rowid);
        const text = textOf(oldJson);
        this.s.ftsDelete.run(old.rowid, text.transcript, text.summary, ftsText(old.customer_name), old.customer_number);
        records.release(old.record);
        add(-1, old.created_at, {
          assistant: old.assistant_id,
          number: old.phone_number_id,
          status: old.status,
          reason: old.ended_reason,
          type: old.type,
          seconds: old.duration ?? 0,
          cost: old.cost ?? 0,
        });
        sweep = true;
        counts.updated++;
        if (old.created_at === createdAt) {
          rowid = old.rowid;
          this.s.update.run(
            this.nameNumber(row.assistant),
            this.nameNumber(row.number),
            row.type,
            row.status,
            row.reason,
            row.cost,
            row.seconds,
            row.customerNumber,
            row.customerName,
            row.ended,
            records.add(json),
            rowid,
          );
        } else {
          this.s.deleteCall.run(old.rowid);
          rowid = this.insert(call.id, createdAt, row, records.add(json));
        }
      } else {
        counts.added++;
        rowid = this.insert(call.id, createdAt, row, records.add(json));
      }
      this.s.ftsInsert.run(rowid, transcript, summary, ftsText(row.customerName), row.customerNumber);
      const turns = latencyText(call);
      if (turns !== undefined) this.s.latencyInsert.run(rowid, turns);
      add(1, createdAt, { ...row, seconds: row.seconds ?? 0, cost: row.cost ?? 0 });
    }
    delta.forEach((byBucket, dim) => {
      for (const [bucket, byKey] of byBucket) {
        for (const [key, [n, seconds, cost]] of byKey) {
          if (n === 0 && seconds === 0 && cost === 0) continue;
          this.s.rollup.run(dim, bucket, key, n, seconds, cost);
          if (sweep && n < 0) this.s.rollupSweep.run(dim, bucket, key);
        }
      }
    });
    blocks.write(first, pending);
    return counts;
  }

  private insert(
    id: string,
    createdAt: number,
    r: {
      assistant: string | null;
      number: string | null;
      type: string | null;
      status: string | null;
      reason: string | null;
      cost: number | null;
      seconds: number | null;
      customerNumber: string | null;
      customerName: string | null;
      ended: number;
    },
    record: number,
  ): number {
    const rowid = this.nextRowid(createdAt);
    this.s.insert.run(
      rowid,
      id,
      createdAt,
      this.nameNumber(r.assistant),
      this.nameNumber(r.number),
      r.type,
      r.status,
      r.reason,
      r.cost,
      r.seconds,
      r.customerNumber,
      r.customerName,
      r.ended,
      record,
    );
    return rowid;
  }

  /** The number of an assistant or number id in `names` (added when new); names are never removed, so they are kept. */
  private nameNumber(value: string | null): number | null {
    if (value === null) return null;
    let n = this.names.get(value);
    if (n === undefined) {
      this.s.addName.run(value);
      n = (this.s.name.get(value) as { rowid: number }).rowid;
      this.names.set(value, n);
    }
    return n;
  }

  /**
   * The next free slot of that millisecond; past 1024 calls in one ms, the next ms's slots.
   * Calls are written oldest first, so one of the same ms as the last insert takes the next slot
   * without asking the database, and so does one whose ms is outside what was held when the write
   * began and past this write's last insert (every page of a back-fill or of new calls).
   */
  private nextRowid(createdAt: number): number {
    let base = createdAt * SLOTS;
    let rowid: number | undefined;
    if (base === this.slotBase && this.slotLast < base + SLOTS - 1) rowid = this.slotLast + 1;
    while (rowid === undefined) {
      const outside = this.heldLow === null || this.heldHigh === null || base + SLOTS - 1 < this.heldLow || base > this.heldHigh;
      const last = outside && base > this.slotLast ? null : (this.s.lastSlot.get(base, base + SLOTS - 1) as { r: number | null }).r;
      if (last === null) rowid = base;
      else if (last < base + SLOTS - 1) rowid = last + 1;
      else base += SLOTS;
    }
    this.slotBase = Math.floor(rowid / SLOTS) * SLOTS;
    this.slotLast = rowid;
    return rowid;
  }

  /** Removes one call (the service no longer has it). Run inside a transaction. */
  remove(id: string): boolean {
    const old = this.s.old.get(id, id) as OldRow | undefined;
    if (!old) return false;
    const blocks = blocksOf(this.db);
    const text = textOf(blocks.record(old.record));
    this.s.ftsDelete.run(old.rowid, text.transcript, text.summary, ftsText(old.customer_name), old.customer_number);
    const bucket = Math.floor(old.created_at / BUCKET_MS);
    const keys: [number, string | null][] = [
      [DIM.all, ''],
      [DIM.assistant, old.assistant_id],
      [DIM.number, old.phone_number_id],
      [DIM.status, old.status],
      [DIM.endedReason, old.ended_reason],
      [DIM.type, old.type],
    ];
    for (const [dim, key] of keys) {
      this.s.rollup.run(dim, bucket, key ?? '', -1, -(old.duration ?? 0), -(old.cost ?? 0));
      this.s.rollupSweep.run(dim, bucket, key ?? '');
    }
    this.s.deleteCall.run(old.rowid);
    this.s.latencyDelete.run(old.rowid);
    blocks.release(old.record);
    return true;
  }
}
