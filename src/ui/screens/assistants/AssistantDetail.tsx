// One assistant, every field, grouped: model and prompt, voice, transcriber, call behaviour,
// knowledge-base files by name, analysis plan, hang-up prompt, and anything else it came with.
import { useMemo } from 'react';
import { kbFileIds, linkOfNumber, numberLabel } from '../../../api/records.js';
import type { Assistant, KbFile, PhoneNumber } from '../../../api/schemas.js';
import { useActions, useConsole } from '../../../store/index.js';
import type { AssistantActivity } from '../../../store/archive.js';
import type { Resource } from '../../../store/types.js';
import { ScrollView, type Line } from '../../components/ScrollView.js';
import { ErrorState, Loading } from '../../components/Status.js';
import { useSelection } from '../../hooks/selection.js';
import { useDetailKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { dateTime, money, show, wrapText, yesNo } from '../../../format/display.js';
import type { ScreenProps } from '../shared.js';
import { activeWord, grouped } from '../../../format/words.js';
import { cachedNote } from '../lists.js';
import { useTheme } from '../../hooks/theme-context.js';
import type { Palette } from '../../theme.js';

const KNOWN = new Set([
  'id',
  'name',
  'status',
  'description',
  'voice',
  'transcriber',
  'model',
  'firstMessage',
  'firstMessageMode',
  'backgroundSound',
  'silenceTimeoutSeconds',
  'backgroundDenoisingEnabled',
  'firstMessageInterruptionsEnabled',
  'maxDurationSeconds',
  'analysisPlan',
  'knowledgeBase',
  'hangupUsingPrompt',
  'createdAt',
  'updatedAt',
]);

/**
 * What the assistant has done (its calls, their minutes and cost, its last call, from the call
 * archive) and the numbers that send their inbound calls to it: two lines under its status.
 */
function activityLines(
  assistantId: string,
  activity: Resource<AssistantActivity> | undefined,
  numbers: PhoneNumber[] | undefined,
  links?: Readonly<Record<string, string>>,
): Line[] {
  const field = (label: string, value: string, dim?: boolean): Line => ({ text: `${label.padEnd(24)}  ${value}`, dim });
  const act = activity?.data;
  const calls = act
    ? field(
        'calls',
        `${grouped(act.calls)} · ${act.minutes.toFixed(1)} min · ${money(act.cost)} · ` +
          `last ${act.lastCall ? `${dateTime(act.lastCall.createdAt)} ${act.lastCall.status ?? ''}`.trim() : 'none'} (C: its calls)`,
      )
    : activity?.status === 'error'
      ? field('calls', `could not read the call archive: ${activity.error ?? 'unknown error'}`)
      : field('calls', 'reading the call archive…', true);
  const linked = (numbers ?? []).flatMap((n) => {
    const l = linkOfNumber(n, links);
    return l?.assistantId === assistantId ? [`${numberLabel(n)}${l.source === 'here' ? ' (linked here)' : ''}`] : [];
  });
  const nums = field('phone numbers', !numbers ? 'loading…' : linked.length ? linked.join(' · ') : 'none (2, then l links one)', !numbers || !linked.length);
  return [calls, nums];
}

function assistantLines(theme: Palette, a: Assistant, files: KbFile[], width: number): Line[] {
  const lines: Line[] = [];
  const group = (t: string) => lines.push({ text: '' }, { text: t, bold: true, color: theme.accent });
  const field = (label: string, value: unknown) => {
    const text = show(value);
    const wrapped = wrapText(text, Math.max(10, width - 26));
    wrapped.forEach((w, i) => lines.push({ text: `${i === 0 ? label.padEnd(24) : ' '.repeat(24)}  ${w}` }));
  };
  const block = (text: string | null | undefined) => {
    if (!text) return lines.push({ text: '  —', dim: true });
    for (const w of wrapText(text, Math.max(10, width - 2))) lines.push({ text: `  ${w}` });
  };
  lines.push({ text: a.name ?? a.id, bold: true });
  field('id', a.id);
  field('status', activeWord(a.status ?? true));
  field('description', a.description);
  field('created', dateTime(a.createdAt));
  field('updated', dateTime(a.updatedAt));
  group('Model');
  field('provider', a.model?.provider);
  field('model', a.model?.model);
  field('temperature', a.model?.temperature);
  field('max tokens', a.model?.maxTokens);
  field('emotion recognition', yesNo(a.model?.emotionRecognitionEnabled));
  group('System prompt');
  block(a.model?.messages?.find((m) => m.role === 'system')?.content);
  for (const m of a.model?.messages?.filter((m) => m.role !== 'system') ?? []) field(`message (${m.role})`, m.content);
  group('Voice');
  field('provider', a.voice?.provider);
  field('voice id', a.voice?.voiceId);
  field('model', a.voice?.model);
  field('language', a.voice?.language);
  field('speed', a.voice?.speed);
  group('Transcriber');
  field('provider', a.transcriber?.provider);
  field('model', a.transcriber?.model);
  field('language', a.transcriber?.language);
  group('Call behaviour');
  field('first message', a.firstMessage);
  field('first message mode', a.firstMessageMode);
  field('interruptions allowed', yesNo(a.firstMessageInterruptionsEnabled));
  field('background sound', a.backgroundSound);
  field('background denoising', yesNo(a.backgroundDenoisingEnabled));
  field('silence timeout (s)', a.silenceTimeoutSeconds);
  field('max duration (s)', a.maxDurationSeconds);
  group('Knowledge-base files');
  const ids = kbFileIds(a);
  if (ids.length === 0) lines.push({ text: '  none (press K to attach)', dim: true });
  for (const id of ids) {
    const f = files.find((x) => x.id === id);
    lines.push({ text: `  ${f?.name ?? '(unknown file)'}  ${id}` });
  }
  group('Analysis plan');
  block(a.analysisPlan ? JSON.stringify(a.analysisPlan, null, 2) : null);
  group('Hang-up prompt');
  field('enabled', yesNo(a.hangupUsingPrompt?.enabled));
  block(a.hangupUsingPrompt?.prompt);
  const extra = Object.entries(a).filter(([k]) => !KNOWN.has(k));
  if (extra.length) {
    group('Other fields');
    for (const [k, v] of extra) field(k, v);
  }
  return lines;
}

export function AssistantDetail({ route, width, height }: ScreenProps<{ name: 'assistant'; id: string }>) {
  const theme = useTheme();
  const rec = useConsole((s) => s.records[`assistant:${route.id}`]);
  const listed = useConsole((s) => s.assistants.data?.find((a) => a.id === route.id));
  // Shown from the list's cached rows until the record lands, it says so, as the list does.
  const listCachedAt = useConsole((s) => (s.assistants.cached ? (s.assistants.fetchedAt ?? 0) : undefined));
  const files = useConsole((s) => s.files.data?.files);
  const numbers = useConsole((s) => s.numbers.data);
  const links = useConsole((s) => s.numberLinks);
  const activity = useConsole((s) => s.assistantActivity[route.id]);
  const view = useTopView();
  const actions = useActions();
  const a = (rec?.data as Assistant | undefined) ?? listed;
  // Laid out once per record, files and width: a j/k only scrolls (a prompt may be 100,000 characters).
  const fields = useMemo(() => (a ? assistantLines(theme, a, files ?? [], width) : []), [theme, a, files, width]);
  // Its calls and numbers right under its name and status, where they are seen without scrolling.
  const fromCache = !rec?.data && listCachedAt !== undefined;
  const lines = useMemo(() => {
    if (!fields.length) return [];
    const note: Line[] = fromCache ? [{ text: cachedNote({ cached: true, fetchedAt: listCachedAt || undefined, status: 'loading' }), dim: true }] : [];
    return [...note, ...fields.slice(0, 3), ...activityLines(route.id, activity, numbers, links), ...fields.slice(3)];
  }, [fields, activity, numbers, links, route.id, fromCache, listCachedAt]);
  // The record the spec's keys act on (e, E, c…): none yet while it loads; none at all if it cannot be read.
  useSelection(a ? { row: a } : rec?.status === 'error' ? { row: undefined } : undefined);
  useDetailKeys({
    lines: lines.length,
    height,
    loading: !a && rec?.status === 'loading',
    bindings: {
      [Command.Refresh]: () => void actions.loadAssistant(route.id),
      [Command.RawJson]: a && (() => actions.push({ name: 'json', title: `assistant ${a.name ?? a.id}`, value: a })),
    },
  });
  if (!a && rec?.status === 'error') return <ErrorState what="the assistant" message={rec.error} hint={rec.hint} logged={rec.logged} />;
  if (!a) return <Loading what="the assistant" />;
  return <ScrollView lines={lines} scroll={view.scroll} height={height} width={width} />;
}
