// Assistants: table of name, status, model, voice, updated.
import { Box, Text } from 'ink';
import { useActions, useConsole } from '../../../store/index.js';
import { useEditText } from '../../hooks/useEditText.js';
import { Table } from '../../components/Table.js';
import { Empty, ErrorState, Loading } from '../../components/Status.js';
import { useListKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command, type KeyContext } from '../../keymap.js';
import { truncate } from '../../../format/display.js';
import { filterRows, firstLoad, type ScreenProps } from '../shared.js';
import { ASSISTANT_COLUMNS, countLine } from '../lists.js';

const CONTEXTS: KeyContext[] = ['list', 'assistants'];

export function AssistantsList({ width, height }: ScreenProps<{ name: 'assistants' }>) {
  const res = useConsole((s) => s.assistants);
  const view = useTopView();
  const actions = useActions();
  const editText = useEditText();
  const editAsCode = (id: string) => (editText ? void actions.editAssistantAsCode(id, editText) : actions.flash('No terminal to run an editor on', 'error'));
  const rows = filterRows(res.data ?? [], ASSISTANT_COLUMNS, view.filter);
  const selected = rows[Math.min(view.cursor, rows.length - 1)];
  useListKeys({
    contexts: CONTEXTS,
    count: rows.length,
    height: height - 1,
    loading: firstLoad(res),
    onCommand(cmd) {
      if (cmd === Command.Refresh) return void actions.loadAssistants({ force: true }), true;
      if (cmd === Command.New) return actions.push({ name: 'assistant-new' }), true;
      if (!selected) return false;
      switch (cmd) {
        case Command.Open:
          return actions.push({ name: 'assistant', id: selected.id }), true;
        case Command.Edit:
          return actions.push({ name: 'assistant-edit', id: selected.id }), true;
        case Command.EditAsCode:
          return editAsCode(selected.id), true;
        case Command.Clone:
          return actions.push({ name: 'assistant-new', from: selected.id }), true;
        case Command.KnowledgeBase:
          return actions.push({ name: 'assistant-kb', id: selected.id }), true;
        case Command.Chat:
          return actions.push({ name: 'chat', assistantId: selected.id }), true;
        case Command.Outbound:
          return actions.push({ name: 'call-outbound', assistantId: selected.id }), true;
        case Command.RawJson:
          return actions.push({ name: 'json', title: `assistant ${selected.name ?? selected.id}`, value: selected }), true;
      }
      return false;
    },
  });
  if (!res.data && (res.status === 'loading' || res.status === 'idle')) return <Loading what="assistants" />;
  if (res.status === 'error' && !res.data) return <ErrorState what="assistants" message={res.error} hint={res.hint} logged={res.logged} />;
  return (
    <Box flexDirection="column" height={height}>
      <Text dimColor wrap="truncate">
        {truncate(countLine(res, 'assistant'), width)}
      </Text>
      {rows.length === 0 ? (
        <Empty text={view.filter ? `No assistant matches "${view.filter}".` : 'No assistants yet. Press n to create one.'} />
      ) : (
        <Table columns={ASSISTANT_COLUMNS} rows={rows} cursor={view.cursor} scroll={view.scroll} height={height - 1} width={width} rowKey={(a) => a.id} />
      )}
    </Box>
  );
}
