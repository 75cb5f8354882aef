// Checks on what users type, run by commander while it parses (before any request), so a bad
// value exits 2 with a message naming it.
import { InvalidArgumentError } from 'commander';
import { accessSync, constants, statSync } from 'node:fs';
import { parseDateInput } from '../api/dates.js';
import { InputError } from '../api/errors.js';
import { readHandedFile } from '../config/files.js';
import { E164_HINT, isE164 } from '../api/validate.js';
import { UsageError } from './runtime.js';
import { io } from './io.js';

export function nonEmpty(value: string): string {
  const v = value.trim();
  if (v === '') throw new InvalidArgumentError('It must not be empty.');
  return v;
}

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('It must be a positive whole number.');
  }
  return Number(value);
}

/** positiveInt with a ceiling, for values the service (or a timer) cannot take beyond it. */
export function positiveIntUpTo(max: number): (value: string) => number {
  return (value) => {
    const n = positiveInt(value);
    if (n > max) throw new InvalidArgumentError(`It must be at most ${max}.`);
    return n;
  };
}

/** ISO 8601, YYYY-MM-DD or relative (24h, 7d) → ISO 8601 for the service; a bare day starts at midnight. */
export function startDate(value: string): string {
  return isoDate(value, false);
}

/** Like startDate, but a bare day means up to the end of that day (for --before). */
export function endDate(value: string): string {
  return isoDate(value, true);
}

function isoDate(value: string, endOfDay: boolean): string {
  try {
    return parseDateInput(value, { endOfDay }).toISOString();
  } catch (err) {
    if (err instanceof InputError) throw new InvalidArgumentError(err.message);
    throw err;
  }
}

export function e164(value: string): string {
  const v = value.trim();
  if (!isE164(v)) throw new InvalidArgumentError(`It is not an E.164 phone number; ${E164_HINT}.`);
  return v;
}

export function onOff(value: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new InvalidArgumentError("It must be 'on' or 'off'.");
}

/** `--var key=value`, repeatable; collects into an object. */
export function collectVar(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError('It must look like key=value.');
  return { ...previous, [value.slice(0, eq).trim()]: value.slice(eq + 1) };
}

function readableFile(path: string): string {
  try {
    if (!statSync(path).isFile()) throw new UsageError(`${path} is not a file.`);
    accessSync(path, constants.R_OK);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'permission denied'}.`);
  }
  return path;
}

/**
 * All of stdin, read as a stream: a synchronous read of fd 0 fails with EAGAIN when stdin is a
 * non-blocking pipe or socket (as a parent process may hand it over).
 */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io().stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object read from a file the user named, or stdin for `-` (assistant specs and patches). */
export async function readJsonObject(path: string): Promise<Record<string, unknown>> {
  if (path !== '-') readableFile(path);
  const source = path === '-' ? 'stdin' : path;
  const text = path === '-' ? await readStdin() : readHandedFile(path, 'a JSON file');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${source} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`${source} must hold a JSON object.`);
  return parsed as Record<string, unknown>;
}
