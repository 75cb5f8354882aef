// Profiles: the saved profiles with their targets, keys masked (config/mask.ts) and read-only
// settings, `*` on the one the console is on. Enter switches the console to one live (the store
// is replaced by one made for it: store/profiles.ts, ui/live-console.ts); `n` adds one, its key
// typed masked and checked with one request before it is saved; `d` removes one, after asking.
import { count } from '../../../format/words.js';
import { useState } from 'react';
import { Box, Text } from 'ink';
import { useActions, useConsole, type ProfileRow } from '../../../store/index.js';
import type { Column } from '../../../format/column.js';
import { escapeLine } from '../../../format/escape.js';
import { truncate } from '../../../format/display.js';
import { Table } from '../../components/Table.js';
import { Form, type Field, type FormValues } from '../../components/Form.js';
import { Empty, ErrorState, Loading } from '../../components/Status.js';
import { useSelection } from '../../hooks/selection.js';
import { useListKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { filterRows, useSortedList, type ScreenProps } from '../shared.js';

const PROFILE_COLUMNS: Column<ProfileRow>[] = [
  { header: ' ', width: 1, value: (p) => (p.live ? '*' : '') },
  { header: 'NAME', width: 12, priority: 1, grow: true, value: (p) => p.name },
  { header: 'TARGET', width: 24, priority: 1, grow: true, value: (p) => (p.kind === 'sandbox' ? 'embedded sandbox' : p.baseUrl) },
  { header: 'KEY', width: 10, priority: 2, value: (p) => p.apiKey ?? '—' },
  { header: 'READ-ONLY', width: 9, priority: 3, value: (p) => (p.readOnly ? 'yes' : '') },
  { header: 'DEFAULT', width: 7, priority: 4, value: (p) => (p.isDefault ? 'yes' : '') },
];

export function Profiles({ width, height }: ScreenProps<{ name: 'profiles' }>) {
  const res = useConsole((s) => s.profiles);
  const switching = useConsole((s) => s.switching);
  const view = useTopView();
  const actions = useActions();
  const list = useSortedList(filterRows(res.data ?? [], PROFILE_COLUMNS, view.filter), PROFILE_COLUMNS, view.sort);
  const rows = list.rows;
  const selected = rows[Math.min(view.cursor, rows.length - 1)];
  const tableHeight = Math.max(3, height - 1);
  // The row the spec's Enter, n and d act on.
  useSelection(res.status === 'idle' ? undefined : { row: selected });
  useListKeys({
    count: rows.length,
    height: tableHeight,
    loading: res.status === 'idle',
    bindings: {
      ...list.bindings,
      [Command.Refresh]: actions.loadProfiles,
    },
  });
  if (res.status === 'idle') return <Loading what="profiles" />;
  if (res.status === 'error' && !res.data) return <ErrorState what="profiles" message={res.error} hint={res.hint} />;
  const line = switching ? `switching to ${switching}…` : `${count(rows.length, 'profile')} · * the one in use · Enter switches to one · n adds one`;
  return (
    <Box flexDirection="column" height={height}>
      <Text dimColor wrap="truncate">
        {truncate(escapeLine(line), width)}
      </Text>
      {rows.length === 0 ? (
        <Empty text={`No profile matches "${view.filter}".`} />
      ) : (
        <Table columns={list.columns} rows={rows} cursor={view.cursor} scroll={view.scroll} height={tableHeight} width={width} rowKey={(p) => p.name} />
      )}
    </Box>
  );
}

const NEW_PROFILE: Field[] = [
  { kind: 'text', key: 'name', label: 'Name', required: true, hint: "letters, digits, '.', '_' or '-'" },
  { kind: 'text', key: 'baseUrl', label: 'Base URL', required: true, hint: 'https://api.example.com' },
  { kind: 'text', key: 'apiKey', label: 'API key', required: true, mask: true, hint: 'typed masked; checked with one request, then saved' },
];

export function ProfileNew({ width, height }: ScreenProps<{ name: 'profile-new' }>) {
  const actions = useActions();
  const [errors, setErrors] = useState<Record<string, string>>();
  const submit = async (v: FormValues) => {
    const refused = await actions.addProfile({ name: String(v.name).trim(), baseUrl: String(v.baseUrl).trim(), apiKey: String(v.apiKey) });
    if (!refused) return actions.back();
    // The service's words may be in it: escaped like any service text.
    const error = escapeLine(refused.error);
    setErrors({ [refused.field ?? 'name']: error });
    actions.flash(error, 'error');
  };
  return (
    <Form
      title="Add a profile"
      fields={NEW_PROFILE}
      initial={{ name: '', baseUrl: '', apiKey: '' }}
      submitLabel="check the key and save"
      width={width}
      height={height}
      errors={errors}
      onSubmit={submit}
      onCancel={actions.back}
    />
  );
}
