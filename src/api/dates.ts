// Dates as people type them, for the call-log filters of the commands and the console.
import { InputError } from './errors.js';

export interface DateInputOptions {
  /** The moment relative times count back from (default: now). */
  now?: Date;
  /** A bare day (YYYY-MM-DD) means the end of that day rather than its start: for "to" / "before" bounds. */
  endOfDay?: boolean;
}

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const RELATIVE = /^(\d{1,9})\s*([smhdw])$/i;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const FORMS = 'use ISO 8601 (2026-11-01T09:00:00Z), a day (2026-11-01) or a time ago like 30m, 24h, 7d or 2w';

/**
 * Parses ISO 8601 date-times, bare days (local midnight, or the day's last millisecond with
 * `endOfDay`) and relative times counted back from now (`30m`, `24h`, `7d`, `2w`; s/m/h/d/w).
 * A date-time without an offset is local time, as in ISO 8601. Throws an InputError naming the value.
 * The second argument may be the `now` Date itself.
 */
export function parseDateInput(text: string, opts: DateInputOptions | Date = {}): Date {
  const { now = new Date(), endOfDay = false } = opts instanceof Date ? { now: opts } : opts;
  const value = text.trim();

  const rel = RELATIVE.exec(value);
  if (rel) {
    const when = new Date(now.getTime() - Number(rel[1]) * UNIT_MS[rel[2].toLowerCase()]);
    // Before 1970 no call exists, and far enough back the ISO form turns into an expanded year the service refuses.
    if (Number.isNaN(when.getTime()) || when.getTime() < 0) throw new InputError(`"${text}" reaches too far back; give a date instead`);
    return when;
  }

  const day = DAY.exec(value);
  if (day) {
    const [y, mo, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    checkCalendar(text, y, mo, d);
    return endOfDay ? new Date(y, mo - 1, d, 23, 59, 59, 999) : new Date(y, mo - 1, d);
  }

  const dt = DATE_TIME.exec(value);
  if (dt) {
    const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(dt[i]));
    const s = dt[6] ? Number(dt[6]) : 0;
    const ms = dt[7] ? Number(dt[7].slice(0, 3).padEnd(3, '0')) : 0;
    checkCalendar(text, y, mo, d);
    if (h > 23 || mi > 59 || s > 59) throw new InputError(`"${text}" is not a real time of day; ${FORMS}`);
    if (!dt[8]) return new Date(y, mo - 1, d, h, mi, s, ms);
    const utc = Date.UTC(y, mo - 1, d, h, mi, s, ms);
    return new Date(utc - offsetMinutes(text, dt[8]) * 60_000);
  }

  throw new InputError(`"${text}" is not a date; ${FORMS}`);
}

/** The regexes accept a 30 February; the calendar does not (Date would silently roll it into March). */
function checkCalendar(text: string, y: number, mo: number, d: number): void {
  const daysInMonth = mo >= 1 && mo <= 12 ? new Date(Date.UTC(y, mo, 0)).getUTCDate() : 0;
  if (d < 1 || d > daysInMonth) throw new InputError(`"${text}" is not a real calendar date; ${FORMS}`);
}

function offsetMinutes(text: string, zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) throw new InputError(`"${text}" has an impossible time-zone offset ${zone}; ${FORMS}`);
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}
