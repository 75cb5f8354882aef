// Display formatting shared by the screens: sizes, durations, times, truncation and wrapping.

/** Control characters from data (ESC, BEL, NUL…) shown as \x1b etc., never sent raw to the terminal. */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  const chars = [...escapeControls(text.replace(/[\r\n\t]+/g, ' '))];
  if (chars.length <= width) return chars.join('');
  return width === 1 ? '…' : chars.slice(0, width - 1).join('') + '…';
}

export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const t = truncate(text, width);
  const fill = ' '.repeat(Math.max(0, width - [...t].length));
  return align === 'right' ? fill + t : t + fill;
}

/** Word-wraps to lines of at most `width` characters, breaking long words; keeps blank lines. */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const para of escapeControls(text.replace(/\t/g, '  ')).split('\n')) {
    let line = '';
    for (const word of para.split(' ')) {
      let rest = word;
      while ([...rest].length > w) {
        if (line) {
          out.push(line);
          line = '';
        }
        out.push([...rest].slice(0, w).join(''));
        rest = [...rest].slice(w).join('');
      }
      if (!line) line = rest;
      else if ([...line].length + 1 + [...rest].length <= w) line += ' ' + rest;
      else {
        out.push(line);
        line = rest;
      }
    }
    out.push(line);
  }
  return out;
}

export function humanBytes(n: number | null | undefined): string {
  if (n == null) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function duration(seconds: number | null | undefined): string {
  if (seconds == null) return '—';
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  return m ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export function money(cost: number | null | undefined): string {
  return cost == null ? '—' : `$${cost.toFixed(cost < 1 ? 3 : 2)}`;
}

/** "2026-11-21 23:16" in local time; the raw value when it isn't a date. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function yesNo(v: boolean | null | undefined): string {
  return v == null ? '—' : v ? 'yes' : 'no';
}

/** Any value as one line of text (objects as compact JSON). */
export function show(v: unknown): string {
  if (v == null || v === '') return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
