// Numbers: table of DID, provider, SIP domain, status, linked assistant; `l` links an assistant.
import { useMemo } from 'react';
import { Box, Text } from 'ink';
import { useActions, useConsole } from '../../../store/index.js';
import { Table } from '../../components/Table.js';
import { Picker } from '../../components/Picker.js';
import { Empty, ErrorState, Loading } from '../../components/Status.js';
import { useListKeys } from '../../hooks/useScreenKeys.js';
import { useCopy } from '../../hooks/useCopy.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { filterRows, firstLoad, useAssistantName, useSortedList, type ScreenProps } from '../shared.js';
import { truncate } from '../../../format/display.js';
import { countLine, numberColumns } from '../lists.js';
import { linkOfNumber } from '../../../api/records.js';

export function Numbers({ width, height }: ScreenProps<{ name: 'numbers' }>) {
  const res = useConsole((s) => s.numbers);
  const view = useTopView();
  const actions = useActions();
  const links = useConsole((s) => s.numberLinks);
  const assistantName = useAssistantName();
  const columns = useMemo(() => numberColumns(assistantName, links), [assistantName, links]);
  const list = useSortedList(filterRows(res.data ?? [], columns, view.filter), columns, view.sort);
  const rows = list.rows;
  const selected = rows[Math.min(view.cursor, rows.length - 1)];
  const copy = useCopy();
  const link = () => void (selected && actions.push({ name: 'number-link', id: selected.id }));
  useListKeys({
    count: rows.length,
    height: height - 1,
    loading: firstLoad(res),
    bindings: {
      [Command.Refresh]: () => void actions.loadNumbers({ force: true }),
      [Command.Link]: link,
      ...list.bindings,
      [Command.Open]: link,
      [Command.CopyId]: copy('id', selected?.id),
      [Command.CopyNumber]: copy('DID', selected?.did),
      [Command.RawJson]: () => void (selected && actions.push({ name: 'json', title: `number ${selected.did ?? selected.id}`, value: selected })),
    },
  });
  if (!res.data && (res.status === 'loading' || res.status === 'idle')) return <Loading what="phone numbers" />;
  if (res.status === 'error' && !res.data) return <ErrorState what="phone numbers" message={res.error} hint={res.hint} logged={res.logged} />;
  return (
    <Box flexDirection="column" height={height}>
      <Text dimColor wrap="truncate">
        {truncate(countLine(res, 'number', { cursor: view.cursor, shown: rows.length }), width)}
      </Text>
      {rows.length === 0 ? (
        <Empty text={view.filter ? `No number matches "${view.filter}".` : 'No phone numbers on this account.'} />
      ) : (
        <Table columns={list.columns} rows={rows} cursor={view.cursor} scroll={view.scroll} height={height - 1} width={width} rowKey={(n) => n.id} />
      )}
    </Box>
  );
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
  const did = number?.did ?? route.id;
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
