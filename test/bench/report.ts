// What a row measures (a Figure), and the one table + JSON file the bench prints at the end;
// after a full run the same table also goes to RESULTS.md beside this file, which the README links.
import { cpus, totalmem, platform, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Summary } from './stats.js';

export interface Target {
  /** as printed: "≤ 1.5× node", "≥ 4,000 req/s" */
  text: string;
  met(f: Figure): boolean;
}

export interface Figure {
  row: number;
  name: string;
  unit: string;
  /** the median (or the single figure, e.g. req/s of one long run) */
  value?: number;
  /** min–max of the runs the median came from */
  spread?: [number, number];
  runs?: number;
  /** value ÷ its baseline measured in the same bench run: bare node, unless the target names another */
  ratio?: number;
  target?: Target;
  /** why the figure could not be measured */
  na?: string;
  note?: string;
  /** extra numbers for the JSON file only */
  detail?: Record<string, unknown>;
}

export function fromSummary(s: Summary): Pick<Figure, 'value' | 'spread' | 'runs'> {
  return { value: s.median, spread: [s.min, s.max], runs: s.runs };
}

/** At most `x` times a baseline measured in the same run: bare node unless another is named. */
export const atMostRatio = (x: number, baseline = 'node'): Target => ({ text: `≤ ${x}× ${baseline}`, met: (f) => f.ratio !== undefined && f.ratio <= x });
export const atMost = (x: number, unit: string): Target => ({ text: `≤ ${fmtNum(x)} ${unit}`, met: (f) => f.value !== undefined && f.value <= x });
export const atLeast = (x: number, unit: string): Target => ({ text: `≥ ${fmtNum(x)} ${unit}`, met: (f) => f.value !== undefined && f.value >= x });
/**
 * A target as a ratio to a baseline measured in the same run (what `met` judges: a slower or busier
 * machine moves both), with the absolute figure it stands for on the reference machine beside it.
 */
export const ratioTo = (op: '≥' | '≤', x: number, baseline: string, absolute: string): Target => ({
  text: `${op} ${x}× ${baseline} (${absolute})`,
  met: (f) => f.ratio !== undefined && (op === '≥' ? f.ratio >= x : f.ratio <= x),
});

export function machine(): Record<string, string> {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown',
    cores: String(cpu.length),
    ram: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${platform()} ${release()}`,
    node: process.version,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

function fmtNum(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  if (Math.abs(n) >= 100) return n.toFixed(0);
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

function cells(f: Figure): string[] {
  const name = `${f.row}. ${f.name}`;
  if (f.na !== undefined) return [name, `n/a (${f.na})`, '', '', '', f.target?.text ?? '', ''];
  const value = f.value === undefined ? '' : `${fmtNum(f.value)} ${f.unit}`;
  const spread = f.spread ? `${fmtNum(f.spread[0])}–${fmtNum(f.spread[1])}` : '';
  const ratio = f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}×`;
  const met = f.target ? (f.target.met(f) ? '✓' : '✗') : '';
  return [name, value, spread, f.runs === undefined ? '' : String(f.runs), ratio, f.target?.text ?? '', met];
}

/** A Markdown table, as the bench prints it and RESULTS.md keeps it. */
export function renderTable(figures: Figure[]): string {
  const head = ['figure', 'median', 'spread (min–max)', 'runs', '× base', 'target', 'met'];
  const rows = figures.map(cells);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => [...r[i]].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c + ' '.repeat(widths[i] - [...c].length)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  const notes = figures.filter((f) => f.note && f.na === undefined).map((f) => `- ${f.row}. ${f.name}: ${f.note}`);
  return [line(head), rule, ...rows.map(line), ...(notes.length ? ['', ...notes] : [])].join('\n');
}

export function toJson(figures: Figure[], extra: Record<string, unknown>): string {
  return JSON.stringify(
    {
      ...extra,
      figures: figures.map((f) => ({ ...f, target: f.target?.text, met: f.na === undefined && f.target ? f.target.met(f) : undefined })),
    },
    null,
    2,
  );
}

/** The table of the last full run, linked from the README (test/bench/RESULTS.md). */
export const RESULTS_FILE = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

/** A run of every row at full length: only such a run replaces RESULTS_FILE (not `--rows`, not `--quick`). */
export function isFullRun(args: { quick: boolean; rows?: Set<number> }): boolean {
  return !args.quick && args.rows === undefined;
}

/** The command line that repeats a run: its SWITCHBOARD_BENCH_* settings (but where it builds) and its flags. */
export function benchCommand(env: Record<string, string | undefined>, argv: string[]): string {
  const settings = Object.keys(env)
    .filter((k) => k.startsWith('SWITCHBOARD_BENCH_') && k !== 'SWITCHBOARD_BENCH_BUILD' && env[k] !== undefined && env[k] !== '')
    .sort()
    .map((k) => `${k}=${env[k]}`);
  return [...settings, 'npm run bench', ...(argv.length ? ['--', ...argv] : [])].join(' ');
}

/** The heading of RESULTS.md's section of same-run A/B measurements, which a full run keeps as it is. */
const MEASURED_HEADING = '## Measured in the same run';

/** RESULTS.md's section of same-run measurements (from its heading to the end), or '' without one. */
export function measuredSection(results: string): string {
  const at = results.indexOf(`\n${MEASURED_HEADING}\n`);
  return at < 0 ? '' : results.slice(at + 1);
}

/**
 * RESULTS.md: how the run was made and how long it took, then what the bench printed: its
 * header (date, machine, Node version) and the table; then `measured`, the same-run A/B
 * measurements behind decisions (a mechanism kept or removed), carried over from the last file.
 */
export function resultsMarkdown(printed: string, command: string, seconds: number, measured = ''): string {
  return [
    "# The bench's last full run",
    '',
    'Written by `npm run bench` (test/bench/bench.ts) at the end of every full run; a `--rows` or',
    '`--quick` run leaves it alone. What the rows measure and how to run them:',
    '[test/README.md](../README.md#the-bench).',
    '',
    `\`${command}\` (${seconds.toFixed(0)} s):`,
    '',
    '```text',
    printed.trimEnd(),
    '```',
    '',
    ...(measured ? [measured.trimEnd(), ''] : []),
  ].join('\n');
}
