// The Chat screen (`4`): the sessions this console remembers, newest first. `n` new chat, Enter
// opens, `o` opens any session id (paste it). A `chat` route naming an assistant shows the new
// session being created until its conversation takes this screen's place.
import { useState } from 'react';
import { Box, Text } from 'ink';
import type { RememberedSession } from '../../../config/sessions.js';
import { useActions, useConsole, type Route } from '../../../store/index.js';
import type { Column } from '../../../format/column.js';
import { Table } from '../../components/Table.js';
import { Empty, ErrorState, Loading } from '../../components/Status.js';
import { TextInput } from '../../components/TextInput.js';
import { Priority, useWaitKeys } from '../../hooks/keypress.js';
import { useSelection } from '../../hooks/selection.js';
import type { SessionsSelection } from './spec.js';
import { useBindings } from '../../hooks/bindings.js';
import { useListKeys, useRouteContexts } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { dateTime } from '../../../format/display.js';
import { matchRecords, shortIdLengthOf } from '../../../format/short-id.js';
import { filterRows, firstLoad, useSortedList, type ScreenProps } from '../shared.js';
import { useTheme } from '../../hooks/theme-context.js';

/** Newest first by when the session was created (entries without a date by when they were remembered). */
function newestFirst(sessions: RememberedSession[]): RememberedSession[] {
  // ISO 8601 times: their order as text is their order in time.
  return [...sessions].sort((a, b) => {
    const x = a.createdAt ?? a.updatedAt;
    const y = b.createdAt ?? b.updatedAt;
    return x < y ? 1 : x > y ? -1 : 0;
  });
}

function sessionColumns(assistantName: (id?: string) => string): Column<RememberedSession>[] {
  return [
    { header: 'NAME', width: 16, priority: 1, grow: true, value: (s) => s.name ?? '—' },
    { header: 'ASSISTANT', width: 16, priority: 2, value: (s) => assistantName(s.assistantId) },
    { header: 'CREATED', width: 16, priority: 4, value: (s) => dateTime(s.createdAt) },
    { header: 'LAST MESSAGE', width: 20, priority: 3, grow: true, value: (s) => s.lastMessage ?? '—' },
    { header: 'MSGS', width: 4, priority: 5, align: 'right', value: (s) => (s.messageCount == null ? '—' : String(s.messageCount)) },
    { header: 'ID', width: 8, priority: 6, grow: true, id: true, value: (s) => s.id },
  ];
}

export function ChatSessions({ route, width, height }: ScreenProps<Extract<Route, { name: 'chat' }>>) {
  if (route.assistantId) return <StartingChat assistantId={route.assistantId} />;
  if (route.sessionId) return <OpeningSession id={route.sessionId} />;
  return <SessionList width={width} height={height} />;
}

/** `:chat <id>` until its conversation takes this route's place: keys typed ahead wait for its input. */
function OpeningSession({ id }: { id: string }) {
  useSelection({ keysOff: true });
  useWaitKeys('waiting');
  return <Loading what={`session ${id}`} />;
}

function StartingChat({ assistantId }: { assistantId: string }) {
  // Not the list: its keys (n, o, Y) are not this screen's.
  useSelection({ keysOff: true });
  const theme = useTheme();
  const start = useConsole((s) => s.chat.starts[assistantId]);
  const name = useConsole((s) => s.assistants.data?.find((a) => a.id === assistantId)?.name ?? assistantId);
  const actions = useActions();
  // r asks again once the start failed (the list's refresh key: this is the list's route).
  const contexts = useRouteContexts();
  useBindings(contexts, { [Command.Refresh]: start?.status === 'error' && (() => void actions.startChat(assistantId)) }, { priority: Priority.Screen });
  // What is typed while the session is created is for the conversation's input (q, ? and digits too).
  useWaitKeys(start?.status === 'error' ? 'failed' : 'waiting');
  if (start?.status === 'error') {
    return (
      <Box flexDirection="column">
        <Text color={theme.error} bold>
          Could not start a chat with {name}
        </Text>
        <Text color={theme.error} wrap="wrap">
          {start.error}
        </Text>
        <Text dimColor>Press r to retry, 4 for your sessions.</Text>
      </Box>
    );
  }
  return <Loading what={`a new chat with ${name}`} />;
}

function SessionList({ width, height }: { width: number; height: number }) {
  const theme = useTheme();
  const index = useConsole((s) => s.chat.index);
  const assistants = useConsole((s) => s.assistants.data);
  const view = useTopView();
  const actions = useActions();
  const [asking, setAsking] = useState<string | null>(null);
  const columns = sessionColumns((id) => (id ? (assistants?.find((a) => a.id === id)?.name ?? id) : '—'));
  const list = useSortedList(filterRows(newestFirst(index.data ?? []), columns, view.filter), columns, view.sort);
  const rows = list.rows;
  const selected = rows[Math.min(view.cursor, rows.length - 1)];
  const bodyHeight = Math.max(2, height - (asking === null ? 0 : 2));
  useSelection<SessionsSelection>(asking !== null ? { keysOff: true } : firstLoad(index) ? undefined : { row: selected, askId: () => setAsking('') });

  useListKeys({
    count: rows.length,
    height: bodyHeight,
    active: asking === null,
    loading: firstLoad(index),
    bindings: {
      [Command.Refresh]: () => actions.loadSessionIndex(),
      [Command.Open]: () => void (selected && actions.push({ name: 'chat-session', sessionId: selected.id })),
      [Command.RawJson]: () => void (selected && actions.push({ name: 'json', title: `session ${selected.name ?? selected.id}`, value: selected })),
      ...list.bindings,
    },
  });
  useBindings(
    ['prompt'],
    {
      [Command.Cancel]: () => setAsking(null),
      [Command.Accept]: () => {
        const typed = (asking ?? '').trim();
        if (!typed) return; // nothing typed yet: stay
        // The short id (or the name) this list shows names its session, as with `:chat`; one it
        // does not have is asked of the service as typed.
        const found = matchRecords(typed, index.data ?? [], (x) => x.name).records;
        setAsking(null);
        actions.push({ name: 'chat-session', sessionId: found.length === 1 ? found[0].id : typed });
      },
    },
    { priority: Priority.Overlay, active: asking !== null },
  );

  const prompt =
    asking === null ? null : (
      <Box flexDirection="column">
        <Text>
          <Text color={theme.warning}>Session id: </Text>
          <TextInput value={asking} onChange={setAsking} focus placeholder="paste a session id" width={Math.max(10, width - 12)} />
        </Text>
        <Text dimColor>Enter open · Esc cancel</Text>
      </Box>
    );
  let body;
  if (index.status === 'error') body = <ErrorState what="the remembered sessions" message={index.error} />;
  else if (!index.data) body = <Loading what="sessions" />;
  else if (rows.length === 0)
    body = <Empty text={view.filter ? `No session matches "${view.filter}".` : 'No chats yet. Press n to start one, or o to open a session id.'} />;
  else
    body = (
      <Table
        columns={list.columns}
        rows={rows}
        cursor={view.cursor}
        scroll={view.scroll}
        height={bodyHeight}
        width={width}
        rowKey={(s) => s.id}
        idLength={shortIdLengthOf(index.data ?? [])}
        measured={index.data}
      />
    );
  return (
    <Box flexDirection="column">
      {prompt}
      {body}
    </Box>
  );
}
