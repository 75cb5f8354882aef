// Turning a conversation into lines: each turn is a heading (who, when, what it cost) and its text
// wrapped to the width. A turn's lines are computed once per width and reused, so new turns and
// keystrokes never re-wrap the history.
import type { Turn } from '../../../store/chat.js';
import { money, wrapText } from '../../../format/display.js';
import { escapeLine } from '../../../format/escape.js';

export interface TurnLine {
  text: string;
  heading?: boolean;
  /** undefined when the service named no role */
  role: string | undefined;
}

/** "HH:MM" for today, "YYYY-MM-DD HH:MM" for another day, in local time. */
function turnTime(iso: string | undefined, now = new Date()): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  const hm = `${p(d.getHours())}:${p(d.getMinutes())}`;
  return d.toDateString() === now.toDateString() ? hm : `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${hm}`;
}

/** Who said a turn; its role is already read by src/api/records.ts (bot → assistant, customer → user). */
function speakerOf(role: string | undefined, assistantName: string): string {
  if (role === 'user') return 'You';
  if (role === 'assistant') return assistantName;
  return role ?? '—';
}

/**
 * The {{variables}} the latest reply left as written: the service had no value for them (a hosted
 * service says nothing; the sandbox names them too).
 */
export function unsetVariables(turns: readonly Turn[]): string[] {
  const reply = [...turns].reverse().find((t) => t.role === 'assistant');
  return [...new Set([...(reply?.content ?? '').matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)].map((m) => m[1]))];
}

const cache = new WeakMap<Turn, Map<string, TurnLine[]>>();

/** The lines of one turn (heading, wrapped text, a blank line after), cached per turn, speaker and width. */
export function turnLines(turn: Turn, assistantName: string, width: number): TurnLine[] {
  const key = `${width}\0${assistantName}`;
  let byKey = cache.get(turn);
  const hit = byKey?.get(key);
  if (hit) return hit;
  const heading = [speakerOf(turn.role, assistantName), turnTime(turn.at), turn.cost != null ? money(turn.cost) : ''].filter(Boolean).join(' · ');
  const lines: TurnLine[] = [
    { text: escapeLine(heading), heading: true, role: turn.role },
    ...wrapText(turn.content, Math.max(10, width - 2)).map((t) => ({ text: `  ${t}`, role: turn.role })),
    { text: '', role: turn.role },
  ];
  if (!byKey) cache.set(turn, (byKey = new Map()));
  byKey.set(key, lines);
  return lines;
}

/** Which slice of each turn shows in a window of `height` lines, `scroll` lines up from the newest. */
export function windowTurns(
  counts: number[],
  height: number,
  scroll: number,
): { slices: { index: number; from: number; to: number }[]; total: number; maxScroll: number; top: number } {
  const total = counts.reduce((a, b) => a + b, 0);
  const maxScroll = Math.max(0, total - height);
  const s = Math.max(0, Math.min(scroll, maxScroll));
  const end = total - s;
  const top = Math.max(0, end - height);
  const slices: { index: number; from: number; to: number }[] = [];
  let at = 0;
  counts.forEach((n, index) => {
    const from = Math.max(top, at);
    const to = Math.min(end, at + n);
    if (from < to) slices.push({ index, from: from - at, to: to - at });
    at += n;
  });
  return { slices, total, maxScroll, top };
}
