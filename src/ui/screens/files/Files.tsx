// Files: paged table; Enter detail (with the assistants that use it). Its keys (u, d, a) are the spec's.
import { kbFileIds, serviceOfRecord, serviceWords } from '../../../api/records.js';
import { Box, Text } from 'ink';
import type { KbFile } from '../../../api/schemas.js';
import { useActions, useConsole } from '../../../store/index.js';
import { moreFiles } from '../../../store/resources.js';
import { Table } from '../../components/Table.js';
import { Form } from '../../components/Form.js';
import { ScrollView, type Line } from '../../components/ScrollView.js';
import { Empty, ErrorState, Loading } from '../../components/Status.js';
import { Spinner } from '../../components/Spinner.js';
import { useSelection } from '../../hooks/selection.js';
import type { FileSelection } from './spec.js';
import { useDetailKeys, useListKeys } from '../../hooks/useScreenKeys.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command } from '../../keymap.js';
import { dateTime, humanBytes, show, truncate, wrapText } from '../../../format/display.js';
import { escapeLine } from '../../../format/escape.js';
import { filterRows, firstLoad, useSortedList, type ScreenProps } from '../shared.js';
import { FILE_COLUMNS, filesLine } from '../lists.js';
import { shortIdLengthOf } from '../../../format/short-id.js';
import { checkUploadPath, completePath, expandHome } from './pathInput.js';
import { knownUploadLimit } from '../../../api/upload-check.js';
import { basename } from 'node:path';
import { useTheme } from '../../hooks/theme-context.js';

/**
 * What a file's keys read (the spec's d, a, Y): the file, and the names of the assistants using it
 * (none while they load), looked for only when `d` asks, not at each move of the cursor.
 */
function useFileSelected(f: KbFile | undefined, loading: boolean) {
  const assistants = useConsole((s) => s.assistants.data);
  const users = () => (f ? assistants?.filter((a) => kbFileIds(a).includes(f.id)).map((a) => a.name ?? a.id) : undefined);
  useSelection<FileSelection>(loading ? undefined : { row: f, users });
}

export function Files({ width, height }: ScreenProps<{ name: 'files' }>) {
  const theme = useTheme();
  const res = useConsole((s) => s.files);
  const view = useTopView();
  const actions = useActions();
  const list = useSortedList(filterRows(res.data?.files ?? [], FILE_COLUMNS, view.filter), FILE_COLUMNS, view.sort);
  const rows = list.rows;
  const selected = rows[Math.min(view.cursor, rows.length - 1)];
  const more = res.data ? moreFiles(res.data) : false;
  const tableHeight = Math.max(3, height - 1);
  // Near the end of the loaded pages, a move down fetches the next one too (the store ignores repeats).
  useFileSelected(selected, firstLoad(res));
  const loadMore = view.cursor >= rows.length - 6 && more && (() => void actions.loadFiles({ more: true }));
  useListKeys({
    empty: 'no file here',
    count: rows.length,
    height: tableHeight,
    loading: firstLoad(res),
    bindings: {
      [Command.Refresh]: () => void actions.loadFiles({ force: true }),
      ...list.bindings,
      [Command.Down]: loadMore,
      [Command.PageDown]: loadMore,
      [Command.Bottom]: loadMore,
      [Command.Open]: () => void (selected && actions.push({ name: 'file', id: selected.id })),
      [Command.RawJson]: () => void (selected && actions.push({ name: 'json', title: `file ${selected.name ?? selected.id}`, value: selected })),
    },
  });
  if (!res.data && (res.status === 'loading' || res.status === 'idle')) return <Loading what="files" />;
  if (res.status === 'error' && !res.data) return <ErrorState what="files" message={res.error} hint={res.hint} logged={res.logged} />;
  return (
    <Box flexDirection="column" height={height}>
      <Text dimColor wrap="truncate">
        {truncate(filesLine(res, { cursor: view.cursor, shown: rows.length }), width)}
        {res.status === 'error' && !res.cached ? <Text color={theme.error}>{`  ${escapeLine(res.error ?? '')}`}</Text> : ''}
      </Text>
      {rows.length === 0 ? (
        <Empty text={view.filter ? `No file matches "${view.filter}".` : 'No files yet. Press u to upload one.'} />
      ) : (
        <Table
          columns={list.columns}
          rows={rows}
          cursor={view.cursor}
          scroll={view.scroll}
          height={tableHeight}
          width={width}
          rowKey={(f) => f.id}
          idLength={shortIdLengthOf(res.data?.files ?? [])}
          measured={res.data?.files}
        />
      )}
    </Box>
  );
}

export function FileDetail({ route, width, height }: ScreenProps<{ name: 'file'; id: string }>) {
  const theme = useTheme();
  const rec = useConsole((s) => s.records[`file:${route.id}`]);
  const listed = useConsole((s) => s.files.data?.files.find((f) => f.id === route.id));
  const assistants = useConsole((s) => s.assistants.data);
  const view = useTopView();
  const actions = useActions();
  const f = (rec?.data as KbFile | undefined) ?? listed;
  const lines: Line[] = [];
  if (f) {
    lines.push({ text: f.name ?? f.id, bold: true });
    // The service object, whichever name the record gives it (`organization`, `service`).
    const owner = serviceWords(serviceOfRecord(f));
    if (owner) lines.push({ text: `${'service'.padEnd(20)}  ${owner}` });
    for (const [k, v] of Object.entries(f)) {
      if (k === 'organization' || k === 'service') continue;
      const value = k === 'bytes' ? `${humanBytes(f.bytes)} (${f.bytes} bytes)` : k.endsWith('At') ? dateTime(String(v)) : show(v);
      wrapText(value, Math.max(10, width - 22)).forEach((w, i) => lines.push({ text: `${(i ? '' : k).padEnd(20)}  ${w}` }));
    }
    lines.push({ text: '' }, { text: 'Used by assistants', bold: true, color: theme.accent });
    const users = (assistants ?? []).filter((a) => kbFileIds(a).includes(f.id));
    if (!assistants) lines.push({ text: '  (loading assistants…)', dim: true });
    else if (users.length === 0) lines.push({ text: '  none', dim: true });
    for (const a of users) lines.push({ text: `  ${a.name ?? a.id}  ${a.id}` });
  }
  useFileSelected(f, !f && rec?.status !== 'error');
  useDetailKeys({
    lines: lines.length,
    height,
    bindings: {
      [Command.Refresh]: () => void actions.loadFile(route.id),
      [Command.RawJson]: f && (() => actions.push({ name: 'json', title: `file ${f.name ?? f.id}`, value: f })),
    },
  });
  if (!f && rec?.status === 'error') return <ErrorState what="the file" message={rec.error} hint={rec.hint} logged={rec.logged} />;
  if (!f) return <Loading what="the file" />;
  return <ScrollView lines={lines} scroll={view.scroll} height={height} width={width} />;
}

export function FileUpload({ width, height }: ScreenProps<{ name: 'file-upload' }>) {
  const actions = useActions();
  const upload = useConsole((s) => s.upload);
  const limit = knownUploadLimit(useConsole((s) => s.target.kind));
  const listed = useConsole((s) => s.files.data?.files);
  const uploading = upload.status === 'uploading';
  const pct = upload.total ? Math.floor((upload.sent / upload.total) * 100) : 0;
  return (
    <Box flexDirection="column" height={height}>
      <Form
        title="Upload a knowledge-base file"
        fields={[
          {
            kind: 'text',
            key: 'path',
            label: 'Path',
            required: true,
            hint: 'Tab completes; ~ is your home',
            validate: (v) => checkUploadPath(v, limit),
            complete: completePath,
          },
        ]}
        initial={{ path: '' }}
        submitLabel="Upload"
        width={width}
        height={Math.max(4, height - 2)}
        onCancel={actions.back}
        onSubmit={async (v) => {
          const path = expandHome(String(v.path).trim());
          const send = async () => {
            const file = await actions.uploadFile(path);
            if (file) {
              actions.back();
              actions.push({ name: 'file', id: file.id });
            }
          };
          // Two files of one name make `knowledgeBase: { files: [that-name] }` ambiguous: ask first (of the files listed).
          const name = basename(path);
          const same = (listed ?? []).filter((f) => f.name === name);
          if (same.length === 0) return send();
          actions.confirm({
            title: `A file named ${name} is already there`,
            message:
              `${same.length === 1 ? `It is ${same[0].id}` : `${same.length} are (${same.map((f) => f.id).join(', ')})`}. ` +
              `Another of the same name makes knowledgeBase: { files: [${name}] } ambiguous (an id is not). Upload it anyway?`,
            confirmLabel: `upload a second ${name}`,
            onConfirm: send,
          });
        }}
      />
      {uploading ? (
        <Text>
          <Spinner /> uploading {upload.path} {upload.total ? `${pct}% (${humanBytes(upload.sent)} of ${humanBytes(upload.total)})` : ''}
        </Text>
      ) : null}
    </Box>
  );
}
