// One call: known fields formatted, the transcript as a dialogue, the summary, and every field the
// service returned that we don't know, as it came.
import { useEffect, useMemo, useRef } from 'react';
import type { Call } from '../../../api/schemas.js';
import { CALL_VIEW_FIELDS, isToolTurn, numberDid, speakerWord, viewCall } from '../../../api/records.js';
import { callSections, dollars, otherFields, tableLines } from '../../../api/call-details.js';
import { useActions, useConsole } from '../../../store/index.js';
import { searchedWords } from '../../../store/archive.js';
import { ScrollView, type Line } from '../../components/ScrollView.js';
import { ErrorState, Loading } from '../../components/Status.js';
import { useSelection } from '../../hooks/selection.js';
import { useDetailKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { usePager } from '../../hooks/useEditText.js';
import { escapeLine } from '../../../format/escape.js';
import { Command } from '../../keymap.js';
import { dateTime, duration, show, wrapText } from '../../../format/display.js';
import { useAssistantName, type ScreenProps } from '../shared.js';
import { useTheme } from '../../hooks/theme-context.js';
import type { Palette } from '../../theme.js';

/**
 * The lines that hold one of `words`, marked, and the one to scroll to: the first match in the
 * summary or transcript (where a search matched), else the first anywhere; -1 for none.
 */
function markMatches(lines: Line[], words: string[]): { lines: Line[]; first: number } {
  if (!words.length) return { lines, first: -1 };
  const lower = words.map((w) => w.toLowerCase());
  const body = lines.findIndex((l) => l.bold && l.text === 'Summary');
  let first = -1;
  const marked = lines.map((l, i) => {
    const t = l.text.toLowerCase();
    if (!lower.some((w) => t.includes(w))) return l;
    if (first < 0 || (first < body && i > body)) first = i;
    return { ...l, marks: words };
  });
  return { lines: marked, first };
}

/**
 * `pending` says why the summary and transcript are missing while only the log's row is known
 * (the log keeps neither): still loading, or the whole record could not be loaded.
 */
/** Wide enough that the pager, not this page, decides where a line of the transcript wraps. */
const PAGER_WIDTH = 400;

export function callLines(
  theme: Palette,
  call: Call,
  names: { assistant: string; number: string },
  width: number,
  pending?: string,
  opts: { transcriptText?: boolean } = {},
): Line[] {
  const c = viewCall(call);
  const lines: Line[] = [];
  const group = (t: string) => lines.push({ text: '' }, { text: t, bold: true, color: theme.accent });
  const field = (label: string, value: unknown) => {
    wrapText(show(value), Math.max(10, width - 24)).forEach((w, i) => lines.push({ text: `${(i ? '' : label).padEnd(22)}  ${w}` }));
  };
  lines.push({ text: `Call ${c.id}`, bold: true });
  field('status', c.status);
  field('type', c.type);
  field('assistant', names.assistant);
  field('phone number', names.number);
  field('customer', [c.customer?.number, c.customer?.name].filter(Boolean).join('  '));
  field('created', dateTime(c.createdAt));
  field('started', dateTime(c.startedAt));
  field('ended', dateTime(c.endedAt));
  field('ended reason', c.endedReason);
  field('duration', duration(c.durationSeconds));
  field('cost', c.cost == null ? '—' : dollars(c.cost));
  field('updated', dateTime(c.updatedAt));
  const missing = { text: `  ${pending}`, dim: true };
  group('Summary');
  if (pending) lines.push(missing);
  else for (const w of wrapText(c.summary || '—', width - 2)) lines.push({ text: `  ${w}` });
  group('Transcript');
  const turns = c.turns.filter((t) => t.role !== 'system' && t.text !== '');
  if (pending) lines.push(missing);
  else if (turns.length && !(opts.transcriptText && c.transcript)) {
    for (const t of turns) {
      const who = speakerWord(t.role);
      // A tool's call or result is not speech: its own label, indented under it, dimmed.
      const tool = isToolTurn(t.role);
      const label = tool ? who.length + 3 : 12;
      wrapText(t.text, Math.max(10, width - label)).forEach((w, i) =>
        lines.push(
          tool
            ? { text: `${(i ? '' : who + ':').padEnd(label - 2)}  ${w}`, color: theme.muted, dim: true }
            : { text: `${(i ? '' : who + ':').padEnd(10)}  ${w}`, color: i === 0 && t.role === 'user' ? theme.warning : undefined },
        ),
      );
    }
  } else if (c.transcript) {
    for (const w of wrapText(c.transcript, width - 2)) lines.push({ text: `  ${w}` });
  } else lines.push({ text: c.status === 'ended' ? '  no transcript' : '  (the transcript arrives when the call ends)', dim: true });
  // What else the platform sent (cost breakdown, analysis, latencies, recording), in its sections,
  // after the dialogue, which is what the page is opened for.
  for (const section of callSections(call)) {
    const rows = section.title === 'Analysis' ? section.rows.filter(([label]) => label !== 'summary') : section.rows;
    if (!rows.length && !section.table) continue;
    group(section.title);
    for (const [label, value] of rows) field(label, value);
    if (section.table) for (const [i, l] of tableLines(section.table).entries()) lines.push({ text: `  ${escapeLine(l)}`, dim: i === 0 });
  }
  const extra = otherFields(call, CALL_VIEW_FIELDS);
  if (extra.length) {
    group('Other fields (as returned)');
    for (const [k, v] of extra) field(k, v);
  }
  return lines;
}

export function CallDetail({ route, width, height }: ScreenProps<{ name: 'call'; id: string; match?: string }>) {
  const theme = useTheme();
  const rec = useConsole((s) => s.records[`call:${route.id}`]);
  // The log can hold 100k calls: select the array (a stable reference) and search it only when it changes.
  const logged = useConsole((s) => s.callLog.calls);
  const listed = useMemo(() => logged.find((c) => c.id === route.id), [logged, route.id]);
  const numbers = useConsole((s) => s.numbers.data);
  const page = usePager();
  const assistantName = useAssistantName();
  const view = useTopView();
  const actions = useActions();
  const c = (rec?.data as Call | undefined) ?? listed;
  const pending = rec?.data ? undefined : rec?.status === 'error' ? `could not load the whole call: ${rec.error}` : 'loading…';
  const names = { assistant: assistantName(c?.assistantId), number: numberDid(numbers?.find((n) => n.id === c?.phoneNumberId)) ?? c?.phoneNumberId ?? '—' };
  const plain = c ? callLines(theme, c, names, width, pending) : [];
  // Opened from a search: the match highlighted and, once the whole record is in, scrolled into view (once).
  const words = useMemo(() => (route.match ? searchedWords(route.match) : []), [route.match]);
  let { lines, first } = markMatches(plain, words);
  // The search matched the transcript's text; the dialogue may word it differently: show that text.
  if (words.length && c && viewCall(c).transcript && !pending && !lines.slice(lines.findIndex((l) => l.bold && l.text === 'Transcript')).some((l) => l.marks)) {
    ({ lines, first } = markMatches(callLines(theme, c, names, width, pending, { transcriptText: true }), words));
  }
  const scrolled = useRef(false);
  useEffect(() => {
    if (scrolled.current || first < 0 || pending) return;
    scrolled.current = true;
    const max = Math.max(0, lines.length - height + 1);
    actions.scrollBy(Math.max(0, first - 2) - view.scroll, max);
  }, [first, pending, lines.length, height, actions, view.scroll]);
  useSelection(c ? { row: c } : rec?.status === 'error' ? { row: undefined } : undefined);
  useDetailKeys({
    lines: lines.length,
    height,
    loading: !c && rec?.status === 'loading',
    bindings: {
      [Command.Refresh]: () => void actions.loadCall(route.id),
      [Command.RawJson]: c && (() => actions.push({ name: 'json', title: `call ${c.id}`, value: c })),
      // The page as shown (fields, summary, transcript), unwrapped for the pager's own width; each line escaped on its way out.
      pager:
        c &&
        (() =>
          page(
            () =>
              `${callLines(theme, c, names, PAGER_WIDTH, pending)
                .map((l) => escapeLine(l.text))
                .join('\n')}\n`,
          )),
    },
  });
  if (!c && rec?.status === 'error') return <ErrorState what="the call" message={rec.error} hint={rec.hint} logged={rec.logged} />;
  if (!c) return <Loading what="the call" />;
  return <ScrollView lines={lines} scroll={view.scroll} height={height} width={width} />;
}
