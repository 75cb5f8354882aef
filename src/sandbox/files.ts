// Knowledge-base file storage. Contents live under <dataDir>/files/<id> (never by the uploaded
// name); extracted text beside it as <id>.txt. Uploads stream to <dataDir>/uploads/ first and
// are renamed into place only when complete, so a half-written upload never becomes a record.
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SandboxContext } from './context.js';
import { dataPaths, type FileRow, type SandboxStore } from './db.js';
import { knowledgeFileIds, type KnowledgeDoc } from './chat.js';
import { HttpError } from './errors.js';
import { pidAlive } from '../config/lock.js';

const MIME_BY_EXTENSION: Record<string, string> = {
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.json': 'application/json',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xml': 'application/xml',
  '.pdf': 'application/pdf',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
};

/** Types whose text the sandbox extracts; other files are stored and marked done without text. */
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/csv', 'text/tab-separated-values', 'application/json']);

export const mimetypeOf = (name: string) => MIME_BY_EXTENSION[extname(name).toLowerCase()] ?? 'application/octet-stream';

/**
 * A display name safe to show and store: the last path segment, without control or
 * bidi-override characters, no leading dots, at most 255 characters.
 */
function displayName(raw: string | undefined): string {
  let n = (raw ?? '').normalize('NFC');
  n = n.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '');
  n = n.split(/[\\/]/).pop() ?? '';
  n = n.replace(/^[.\s]+/, '').trim();
  if (!n) return 'upload';
  if (n.length > 255) {
    const ext = extname(n).slice(0, 16);
    n = n.slice(0, 255 - ext.length) + ext;
  }
  return n;
}

export const contentPath = (dataDir: string, id: string) => join(dataPaths(dataDir).files, id);
export const textPath = (dataDir: string, id: string) => join(dataPaths(dataDir).files, `${id}.txt`);

/** Thrown when the stream passes the byte limit. */
class UploadTooLarge extends HttpError {
  constructor(limit: number) {
    super(413, `the file is larger than the upload limit of ${limit} bytes`);
  }
}

/** An upload whose bytes are on disk under uploads/, not yet a file: `keep` records it, `discard` removes it. */
export interface PendingUpload {
  keep(): Promise<FileRow>;
  discard(): Promise<void>;
}

/**
 * Streams an upload to disk under uploads/. Bytes are counted as they pass, so a too-large
 * upload is cut off without ever being held in memory. Nothing is recorded until `keep`, which
 * the route calls only once the whole request was accepted: a refused request leaves nothing.
 */
export async function saveUpload(ctx: SandboxContext, stream: Readable & { truncated?: boolean }, rawName: string | undefined): Promise<PendingUpload> {
  const id = randomUUID();
  const tmp = join(dataPaths(ctx.dataDir).uploads, partName(id));
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > ctx.maxUploadBytes) done(new UploadTooLarge(ctx.maxUploadBytes));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(stream, counter, createWriteStream(tmp, { mode: 0o600 }));
    // busboy cuts a stream at its own limit and only flags it; never record a cut file.
    if (stream.truncated) throw new UploadTooLarge(ctx.maxUploadBytes);
    const fh = await open(tmp, 'r+');
    try {
      await fh.sync(); // the record written by keep() promises the bytes are on disk
    } finally {
      await fh.close();
    }
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return {
    async keep() {
      const name = displayName(rawName);
      const now = new Date().toISOString();
      const row: FileRow = { id, name, bytes, mimetype: mimetypeOf(name), status: 'processing', parsedTextBytes: null, createdAt: now, updatedAt: now };
      try {
        // Under the write lock, so another process's start never sees the bytes without their record.
        ctx.store.underWriteLock(() => {
          renameSync(tmp, contentPath(ctx.dataDir, id));
          ctx.store.insertFile(row);
        });
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
      return row;
    },
    discard: () => rm(tmp, { force: true }),
  };
}

/**
 * A PDF's text, page after page, as the hosted service makes a PDF in a knowledge base usable.
 * The PDF reader (pdf.js, through unpdf) loads only when a PDF arrives: it is most of a megabyte.
 */
async function pdfText(bytes: Buffer): Promise<string> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false });
  return text.map((page) => page.trim()).join('\n\n');
}

/**
 * Extracts a file's text and marks it done (or failed); runs after the upload was answered.
 * Never rejects: if the sandbox closes meanwhile, the file stays `processing` and the next
 * start finishes it.
 */
export async function extractText(ctx: SandboxContext, file: FileRow): Promise<void> {
  let status: FileRow['status'] = 'done';
  let parsed: number | null = null;
  try {
    const text = TEXT_TYPES.has(file.mimetype)
      ? (await readFile(contentPath(ctx.dataDir, file.id), 'utf8')).replace(/^\uFEFF/, '')
      : file.mimetype === 'application/pdf'
        ? await pdfText(await readFile(contentPath(ctx.dataDir, file.id)))
        : undefined;
    if (text !== undefined) {
      await writeFile(textPath(ctx.dataDir, file.id), text, { mode: 0o600 });
      parsed = Buffer.byteLength(text);
    }
  } catch {
    status = 'failed';
  }
  try {
    if (!ctx.store.getFile(file.id)) {
      await rm(textPath(ctx.dataDir, file.id), { force: true }); // deleted while we worked
      return;
    }
    ctx.store.finishFile(file.id, status, parsed, new Date().toISOString());
  } catch {
    // the database closed under us; resumeExtraction picks the file up next start
  }
}

// Other processes (commands, consoles, a standalone sandbox) may be using the same data dir at
// this moment, so a start sweeps only what nobody can still be writing.
/** A part file names the process writing it: `<id>.<pid>.part`. */
const partName = (id: string) => `${id}.${process.pid}.part`;
/** A part whose writer still runs is left alone for this long (after that, its pid was reused). */
const LIVE_PART_MAX_AGE_MS = 24 * 60 * 60 * 1000;

function ageMs(path: string, now: number): number | undefined {
  try {
    return now - statSync(path).mtimeMs;
  } catch {
    return undefined; // gone meanwhile: renamed by its upload, or swept by another start
  }
}

/** An upload's part file that no live process is writing. */
function abandonedPart(path: string, name: string, now: number): boolean {
  const owner = /\.(\d+)\.part$/.exec(name);
  if (!owner || !pidAlive(Number(owner[1]))) return true;
  const age = ageMs(path, now);
  return age !== undefined && age > LIVE_PART_MAX_AGE_MS;
}

/**
 * At a start: clears uploads that no live process is writing and bytes whose record was never
 * written (or was deleted just before a crash), and finishes interrupted text extraction.
 */
export function resumeExtraction(ctx: SandboxContext): void {
  const { uploads, files } = dataPaths(ctx.dataDir);
  const now = Date.now();
  for (const f of readdirSync(uploads)) {
    const path = join(uploads, f);
    if (abandonedPart(path, f, now)) rmSync(path, { force: true });
  }
  // Under the write lock, which keep() holds from its rename to its insert.
  ctx.store.underWriteLock(() => {
    for (const f of readdirSync(files)) {
      if (!ctx.store.getFile(f.replace(/\.txt$/, ''))) rmSync(join(files, f), { force: true });
    }
  });
  for (const f of ctx.store.filesStillProcessing()) void extractText(ctx, f);
}

export async function deleteFileContents(dataDir: string, id: string): Promise<void> {
  await rm(contentPath(dataDir, id), { force: true });
  await rm(textPath(dataDir, id), { force: true });
}

/** The extracted text of the assistant's knowledge-base files that have any. */
export function loadKnowledge(store: SandboxStore, dataDir: string, assistant: Record<string, unknown>): KnowledgeDoc[] {
  const docs: KnowledgeDoc[] = [];
  for (const id of knowledgeFileIds(assistant)) {
    const file = store.getFile(id);
    const path = textPath(dataDir, id);
    if (!file || file.status !== 'done' || !existsSync(path)) continue;
    docs.push({ name: file.name, text: readFileSync(path, 'utf8') });
  }
  return docs;
}
