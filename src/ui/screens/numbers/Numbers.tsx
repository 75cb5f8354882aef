// Numbers: table of DID, provider, SIP domain, status, linked assistant; Enter opens a number.
// Opened from an assistant (`N`), only its numbers. The keys on a number (l, a, C) are the spec's.
import { useMemo } from 'react';
import { Box, Text } from 'ink';
import type { PhoneNumber } from '../../../api/schemas.js';
import { useActions, useConsole, type ConsoleActions } from '../../../store/index.js';
import { Table } from '../../components/Table.js';
import { Picker } from '../../components/Picker.js';
import { ScrollView, type Line } from '../../components/ScrollView.js';
import { Empty, ErrorState, Loading } from '../../components/Status.js';
import { useDetailKeys, useListKeys } from '../../hooks/useScreenKeys.js';
import { useSelection } from '../../hooks/selection.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { filterRows, firstLoad, useAssistantName, useSortedList, type ScreenProps } from '../shared.js';
import { dateTime, show, truncate, wrapText } from '../../../format/display.js';
import { countLine, numberColumns, numberStatus } from '../lists.js';
import { shortIdLengthOf } from '../../../format/short-id.js';
import { linkOfNumber, linkWords, numberDid, numberLabel } from '../../../api/records.js';
import type { NumberSelection } from './spec.js';

/** What a number's keys read (the spec's `l`, `a`, `C`, `#`): the number, its label and DID, its linked assistant as the list shows it. */
function numberSelected(n: PhoneNumber | undefined, links: Readonly<Record<string, string>>): NumberSelection {
  return n ? { row: n, label: numberLabel(n), did: numberDid(n), assistantId: linkOfNumber(n, links)?.assistantId } : { row: undefined };
}

/** `y` on a number's row and on its page. */
const numberJson = (n: PhoneNumber | undefined, actions: ConsoleActions) =>
  n && (() => actions.push({ name: 'json', title: `number ${numberLabel(n)}`, value: n }));

export function Numbers({ route, width, height }: ScreenProps<{ name: 'numbers'; assistantId?: string }>) {
  const res = useConsole((s) => s.numbers);
  const view = useTopView();
  const actions = useActions();
  const links = useConsole((s) => s.numberLinks);
  const assistantName = useAssistantName();
  const columns = useMemo(() => numberColumns(assistantName, links), [assistantName, links]);
  const of = route.assistantId;
  const mine = useMemo(() => (of ? (res.data ?? []).filter((n) => linkOfNumber(n, links)?.assistantId === of) : (res.data ?? [])), [res.data, links, of]);
  const list = useSortedList(filterRows(mine, columns, view.filter), columns, view.sort);
  const rows = list.rows;
  const selected = rows[Math.min(view.cursor, rows.length - 1)];
  useSelection(firstLoad(res) ? undefined : numberSelected(selected, links));
  useListKeys({
    count: rows.length,
    height: height - 1,
    loading: firstLoad(res),
    bindings: {
      [Command.Refresh]: () => void actions.loadNumbers({ force: true }),
      [Command.Open]: selected && (() => actions.push({ name: 'number', id: selected.id })),
      [Command.RawJson]: numberJson(selected, actions),
      ...list.bindings,
    },
  });
  if (!res.data && (res.status === 'loading' || res.status === 'idle')) return <Loading what="phone numbers" />;
  if (res.status === 'error' && !res.data) return <ErrorState what="phone numbers" message={res.error} hint={res.hint} logged={res.logged} />;
  const empty = view.filter
    ? `No number matches "${view.filter}".`
    : of
      ? `No number sends its calls to ${assistantName(of)}. 2, then l links one.`
      : 'No phone numbers on this account.';
  return (
    <Box flexDirection="column" height={height}>
      <Text dimColor wrap="truncate">
        {truncate(
          of
            ? `${countLine({ ...res, data: mine }, 'number', { cursor: view.cursor, shown: rows.length })} linked to ${assistantName(of)}`
            : countLine(res, 'number', { cursor: view.cursor, shown: rows.length }),
          width,
        )}
      </Text>
      {rows.length === 0 ? (
        <Empty text={empty} />
      ) : (
        <Table
          columns={list.columns}
          rows={rows}
          cursor={view.cursor}
          scroll={view.scroll}
          height={height - 1}
          width={width}
          rowKey={(n) => n.id}
          idLength={shortIdLengthOf(res.data ?? [])}
          measured={mine}
        />
      )}
    </Box>
  );
}

/** One number: every field the service sent, its linked assistant first. */
export function NumberDetail({ route, width, height }: ScreenProps<{ name: 'number'; id: string }>) {
  const res = useConsole((s) => s.numbers);
  const n = res.data?.find((x) => x.id === route.id);
  const links = useConsole((s) => s.numberLinks);
  const assistantName = useAssistantName();
  const view = useTopView();
  const actions = useActions();
  const lines: Line[] = [];
  if (n) {
    lines.push({ text: numberLabel(n), bold: true });
    lines.push({ text: `${'assistant'.padEnd(20)}  ${linkWords(linkOfNumber(n, links), assistantName)}` });
    for (const [k, v] of Object.entries(n)) {
      const value = k === 'status' ? numberStatus(n) : k.endsWith('At') && typeof v === 'string' ? dateTime(v) : show(v);
      wrapText(value, Math.max(10, width - 22)).forEach((w, i) => lines.push({ text: `${(i ? '' : k).padEnd(20)}  ${w}` }));
    }
  }
  useSelection(firstLoad(res) ? undefined : numberSelected(n, links));
  useDetailKeys({
    lines: lines.length,
    height,
    loading: firstLoad(res),
    bindings: {
      [Command.Refresh]: () => void actions.loadNumbers({ force: true }),
      [Command.RawJson]: numberJson(n, actions),
    },
  });
  if (!n && res.status === 'error') return <ErrorState what="phone numbers" message={res.error} hint={res.hint} logged={res.logged} />;
  if (!n && res.status !== 'ready') return <Loading what="the number" />;
  if (!n) return <Empty text={`No phone number ${route.id} on this account.`} />;
  return <ScrollView lines={lines} scroll={view.scroll} height={height} width={width} />;
}

export function NumberLink({ route, width, height }: ScreenProps<{ name: 'number-link'; id: string }>) {
  const actions = useActions();
  const number = useConsole((s) => s.numbers.data?.find((n) => n.id === route.id));
  const assistants = useConsole((s) => s.assistants);
  const links = useConsole((s) => s.numberLinks);
  if (!assistants.data)
    return assistants.status === 'error' ? (
      <ErrorState what="assistants" message={assistants.error} hint={assistants.hint} logged={assistants.logged} />
    ) : (
      <Loading what="assistants" />
    );
  const link0 = number ? linkOfNumber(number, links) : undefined;
  const linkedNow = link0?.assistantId;
  const did = number ? numberLabel(number) : route.id;
  const link = async (assistantId: string) => {
    if (await actions.linkNumber(route.id, assistantId)) actions.back();
  };
  return (
    <Picker
      title={`Link an assistant to ${did} for inbound calls`}
      items={assistants.data.map((a) => ({
        id: a.id,
        label: a.name ?? a.id,
        detail: [a.id === linkedNow ? (link0?.source === 'here' ? 'linked here' : 'linked now') : '', a.status === false ? 'inactive' : '', a.id]
          .filter(Boolean)
          .join(' · '),
      }))}
      initialId={linkedNow}
      width={width}
      height={height}
      onCancel={actions.back}
      onChoose={([assistantId]) => {
        const a = assistants.data?.find((x) => x.id === assistantId);
        if (assistantId === linkedNow) return actions.back();
        const name = (id: string) => assistants.data?.find((x) => x.id === id)?.name ?? id;
        // Re-linking moves the number's inbound calls to another assistant: ask first, naming both.
        if (linkedNow) {
          const inactive = a?.status === false ? ', which is inactive and answers no calls' : '';
          actions.confirm({
            title: 'Change where inbound calls go?',
            message: `Calls to ${did} now reach ${name(linkedNow)}; after this they reach ${name(assistantId)}${inactive}.`,
            confirmLabel: 'change the link',
            onConfirm: () => link(assistantId),
          });
          return;
        }
        // An inactive assistant answers no calls: linking one leaves the number silent, so ask first.
        if (a?.status === false) {
          actions.confirm({
            title: 'Link an inactive assistant?',
            message: `${a.name ?? a.id} is inactive and answers no calls: inbound calls to ${did} will not be answered until it is active.`,
            confirmLabel: 'link anyway',
            onConfirm: () => link(a.id),
          });
          return;
        }
        void link(assistantId);
      }}
    />
  );
}
