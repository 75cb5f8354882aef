// Assistants: table of name, status, model, voice, updated. Opened from a file (`a`), only those whose knowledge base holds it.
import { useMemo } from 'react';
import { Box, Text } from 'ink';
import { kbFileIds } from '../../../api/records.js';
import { useActions, useConsole } from '../../../store/index.js';
import { Table } from '../../components/Table.js';
import { Empty, ErrorState, Loading } from '../../components/Status.js';
import { useListKeys } from '../../hooks/useScreenKeys.js';
import { useSelection } from '../../hooks/selection.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { truncate } from '../../../format/display.js';
import { filterRows, firstLoad, useSortedList, type ScreenProps } from '../shared.js';
import { ASSISTANT_COLUMNS, countLine } from '../lists.js';
import { shortIdLengthOf } from '../../../format/short-id.js';

export function AssistantsList({ route, width, height }: ScreenProps<{ name: 'assistants'; usingFile?: string; fileName?: string }>) {
  const res = useConsole((s) => s.assistants);
  const view = useTopView();
  const actions = useActions();
  const file = route.usingFile;
  const users = useMemo(() => (file ? (res.data ?? []).filter((a) => kbFileIds(a).includes(file)) : (res.data ?? [])), [res.data, file]);
  const list = useSortedList(filterRows(users, ASSISTANT_COLUMNS, view.filter), ASSISTANT_COLUMNS, view.sort);
  const rows = list.rows;
  const selected = rows[Math.min(view.cursor, rows.length - 1)];
  // The row the spec's keys act on (e, E, c…): none yet while the first rows load.
  useSelection(firstLoad(res) ? undefined : { row: selected });
  useListKeys({
    empty: 'no assistant here',
    count: rows.length,
    height: height - 1,
    loading: firstLoad(res),
    bindings: {
      [Command.Refresh]: () => void actions.loadAssistants({ force: true }),
      [Command.Open]: () => void (selected && actions.push({ name: 'assistant', id: selected.id })),
      ...list.bindings,
      [Command.RawJson]: () => void (selected && actions.push({ name: 'json', title: `assistant ${selected.name ?? selected.id}`, value: selected })),
    },
  });
  if (!res.data && (res.status === 'loading' || res.status === 'idle')) return <Loading what="assistants" />;
  if (res.status === 'error' && !res.data) return <ErrorState what="assistants" message={res.error} hint={res.hint} logged={res.logged} />;
  return (
    <Box flexDirection="column" height={height}>
      <Text dimColor wrap="truncate">
        {truncate(
          file
            ? `${countLine({ ...res, data: users }, 'assistant', { cursor: view.cursor, shown: rows.length })} using ${route.fileName ?? file}`
            : countLine(res, 'assistant', { cursor: view.cursor, shown: rows.length }),
          width,
        )}
      </Text>
      {rows.length === 0 ? (
        <Empty
          text={view.filter ? `No assistant matches "${view.filter}".` : file ? `No assistant uses ${file}.` : 'No assistants yet. Press n to create one.'}
        />
      ) : (
        <Table
          columns={list.columns}
          rows={rows}
          measured={users}
          cursor={view.cursor}
          scroll={view.scroll}
          height={height - 1}
          width={width}
          rowKey={(a) => a.id}
          idLength={shortIdLengthOf(res.data ?? [])}
        />
      )}
    </Box>
  );
}
