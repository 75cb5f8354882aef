// The records as the service sent them, compressed: up to BLOCK_RECORDS records a zstd frame
// (one JSON text a line), against a dictionary made from the archive's own records and kept in
// it. A call's `record` is its block's rowid × BLOCK_SLOTS plus its line. A block is never
// changed once written (only its count of live records), and its rowid is never used again
// (AUTOINCREMENT), so a block read once may be kept by rowid.
//
// Node's zstd costs a new context per call, most of it loading the dictionary: one frame per
// block instead of per record pays that once for many records, and the records of one page,
// alike in shape, compress against each other as well as against the dictionary. Dictionaries
// are never changed or numbered again either; clearing the archive deletes them (they are made
// of records).
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** Records a block holds at most. */
export const BLOCK_RECORDS = 32;
/** `record` = block rowid × BLOCK_SLOTS + line. */
export const BLOCK_SLOTS = 64;
/** A dictionary is made once a write brings this many records (the first page of a sync). */
const DICT_MIN_RECORDS = 64;
/** zstd's own default dictionary size. */
const DICT_BYTES = 110 * 1024;
/**
 * Level, window and hash table: every block gets a fresh context with the dictionary loaded into its
 * table, and the defaults' tables, sized for large inputs, cost more to fill than a block to compress.
 * On records of 32 alike calls against their dictionary, level 1 compresses as well as level 3.
 */
const LEVEL = 1;
const WINDOW_LOG = 18;
const HASH_LOG = 14;

export const BLOCK_TABLES = `
CREATE TABLE dicts (rowid INTEGER PRIMARY KEY AUTOINCREMENT, data BLOB NOT NULL);
CREATE TABLE blocks (rowid INTEGER PRIMARY KEY AUTOINCREMENT, dict INTEGER NOT NULL, live INTEGER NOT NULL, data BLOB NOT NULL);`;

/** The ref of the `i`th record of a write whose blocks start at rowid `first`. */
export const refOf = (first: number, i: number): number => (first + Math.floor(i / BLOCK_RECORDS)) * BLOCK_SLOTS + (i % BLOCK_RECORDS);

/**
 * A raw-content dictionary (zstd matches against it as if it preceded every block): records
 * spread over the sample, the last ones nearest the data (cheapest to refer to).
 */
function makeDictionary(records: readonly string[]): Buffer {
  const picked: string[] = [];
  let bytes = 0;
  const step = Math.max(1, Math.floor(records.length / 256));
  for (let i = records.length - 1; i >= 0 && bytes < DICT_BYTES; i -= step) {
    picked.push(records[i]);
    bytes += Buffer.byteLength(records[i]) + 1;
  }
  const all = Buffer.from(picked.reverse().join('\n'));
  return all.length > DICT_BYTES ? all.subarray(all.length - DICT_BYTES) : all;
}

/** Reads and writes blocks on one connection; keeps the dictionaries and the last block it read. */
export class RecordBlocks {
  private readonly dicts = new Map<number, Buffer>();
  private readonly s: Record<string, StatementSync>;
  private lastRowid = -1;
  /** The block read last, and where each of its lines starts (a snippet or `get` decodes one line, not all). */
  private last = Buffer.alloc(0);
  private lastStarts: number[] = [];

  constructor(db: DatabaseSync) {
    this.s = {
      block: db.prepare('SELECT dict, data FROM blocks WHERE rowid = ?'),
      dict: db.prepare('SELECT data FROM dicts WHERE rowid = ?'),
      newestDict: db.prepare('SELECT rowid, data FROM dicts ORDER BY rowid DESC LIMIT 1'),
      addDict: db.prepare('INSERT INTO dicts (data) VALUES (?)'),
      nextBlock: db.prepare(`SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'blocks'), 0) + 1 AS n`),
      addBlock: db.prepare('INSERT INTO blocks (rowid, dict, live, data) VALUES (?, ?, ?, ?)'),
      release: db.prepare('UPDATE blocks SET live = live - 1 WHERE rowid = ?'),
      sweep: db.prepare('DELETE FROM blocks WHERE rowid = ? AND live <= 0'),
    };
  }

  private dictionary(id: number): Buffer {
    let d = this.dicts.get(id);
    if (!d) {
      const row = this.s.dict.get(id) as { data: Uint8Array } | undefined;
      if (!row) throw new Error(`the call archive is damaged: its dictionary ${id} is missing; run \`switchboard archive clear\` and sync again`);
      this.dicts.set(id, (d = Buffer.from(row.data)));
    }
    return d;
  }

  /** Reads block `rowid` into `last`; false when there is no such block. */
  private read(rowid: number): boolean {
    if (rowid === this.lastRowid) return true;
    const row = this.s.block.get(rowid) as { dict: number; data: Uint8Array } | undefined;
    if (!row) return false;
    const opts = row.dict === 0 ? {} : { dictionary: this.dictionary(row.dict) };
    this.last = zstdDecompressSync(row.data, opts);
    this.lastStarts = [0];
    for (let at = this.last.indexOf(10); at >= 0; at = this.last.indexOf(10, at + 1)) this.lastStarts.push(at + 1);
    this.lastRowid = rowid;
    return true;
  }

  /** One record's JSON text, as stored. */
  record(ref: number): string | undefined {
    const line = ref % BLOCK_SLOTS;
    if (!this.read(Math.floor(ref / BLOCK_SLOTS)) || line >= this.lastStarts.length) return undefined;
    const end = line + 1 < this.lastStarts.length ? this.lastStarts[line + 1] - 1 : this.last.length;
    return this.last.toString('utf8', this.lastStarts[line], end);
  }

  /** Forgets the block it read last. */
  private forget(): void {
    this.lastRowid = -1;
    this.last = Buffer.alloc(0);
    this.lastStarts = [];
  }

  /** The rowid the next block will get. Inside the writer's transaction. */
  nextBlock(): number {
    return (this.s.nextBlock.get() as { n: number }).n;
  }

  /**
   * Writes `records` (empty strings: slots already dead) as blocks from rowid `first` on,
   * BLOCK_RECORDS each; the `i`th record's ref is refOf(first, i). Inside the writer's transaction.
   */
  write(first: number, records: readonly string[]): void {
    if (records.length === 0) return;
    const dict = this.dictionaryFor(records);
    const opts = {
      params: {
        [constants.ZSTD_c_compressionLevel]: LEVEL,
        [constants.ZSTD_c_checksumFlag]: 0,
        [constants.ZSTD_c_windowLog]: WINDOW_LOG,
        [constants.ZSTD_c_hashLog]: HASH_LOG,
      },
      ...(dict ? { dictionary: dict.data } : {}),
    };
    for (let at = 0, block = first; at < records.length; at += BLOCK_RECORDS, block++) {
      const lines = records.slice(at, at + BLOCK_RECORDS);
      const live = lines.filter((l) => l !== '').length;
      if (live === 0) continue;
      this.s.addBlock.run(block, dict?.id ?? 0, live, zstdCompressSync(Buffer.from(lines.join('\n')), opts));
    }
  }

  /** A record no longer held: its block's count goes down, and a block with none left goes. */
  release(ref: number): void {
    const block = Math.floor(ref / BLOCK_SLOTS);
    this.s.release.run(block);
    this.s.sweep.run(block);
    if (block === this.lastRowid) this.forget();
  }

  /** The newest dictionary; made from `records` when there is none and they are enough to make one. */
  private dictionaryFor(records: readonly string[]): { id: number; data: Buffer } | undefined {
    const newest = this.s.newestDict.get() as { rowid: number; data: Uint8Array } | undefined;
    if (newest) {
      if (!this.dicts.has(newest.rowid)) this.dicts.set(newest.rowid, Buffer.from(newest.data));
      return { id: newest.rowid, data: this.dicts.get(newest.rowid)! };
    }
    const sample = records.filter((r) => r !== '');
    if (sample.length < DICT_MIN_RECORDS) return undefined;
    const data = makeDictionary(sample);
    const id = Number(this.s.addDict.run(data).lastInsertRowid);
    this.dicts.set(id, data);
    return { id, data };
  }
}
