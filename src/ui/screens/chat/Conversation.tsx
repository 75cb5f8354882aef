// A live conversation: the transcript (newest at the bottom, PgUp/PgDn scroll), a status line
// (spinner with elapsed seconds while the assistant answers, or why the last send failed) and the
// input line. Finished turns are memoized blocks in a window rather than Ink's <Static>: Static
// writes above the app for good, which a full-screen console that switches screens can't take
// back. Typing re-renders only the input line; the transcript never sees the draft.
import { memo, useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { useActions, useConsole, useConsoleShallow, type Route } from '../../../store/index.js';
import { totalCost, type Turn } from '../../../store/chat.js';
import { count } from '../../../format/words.js';
import { TextInput, inputRows } from '../../components/TextInput.js';
import { Spinner } from '../../components/Spinner.js';
import { useKeyGap } from '../../hooks/useKeyGap.js';
import { ErrorState, Loading } from '../../components/Status.js';
import { Priority, useWaitKeys } from '../../hooks/keypress.js';
import { useBindings, type Bindings } from '../../hooks/bindings.js';
import { useTopView } from '../../hooks/useTopView.js';
import { Command, describeKey, keysAt, type KeyContext } from '../../keymap.js';
import { useKeymap } from '../../hooks/keymap-context.js';
import { money, truncate, wrapText } from '../../../format/display.js';
import { escapeLine } from '../../../format/escape.js';
import type { ScreenProps } from '../shared.js';
import type { ConversationKey } from './spec.js';
import { turnLines, unsetVariables, windowTurns } from './transcript.js';
import { VariablesEditor } from './VariablesEditor.js';
import { useTheme } from '../../hooks/theme-context.js';

/** The draft box grows to this many rows, then scrolls. */
const MAX_INPUT_LINES = 5;
const MAX_ERROR_LINES = 3;
const CHAT: KeyContext[] = ['chat'];
/** Its keys are its spec's, bound here by name: a name the spec does not declare fails to compile. */
type Keys = { [K in ConversationKey | Command]?: Bindings[K] };
const VARIABLES: ConversationKey = 'variables';

export function Conversation({ route, width, height }: ScreenProps<Extract<Route, { name: 'chat-session' }>>) {
  const theme = useTheme();
  const keymap = useKeymap();
  const id = route.sessionId;
  const meta = useConsoleShallow((s) => {
    const c = s.chat.conversations[id];
    return {
      exists: !!c,
      status: c?.status,
      error: c?.error,
      name: c?.name,
      assistantId: c?.assistantId,
      sending: c?.sending ?? null,
      sendError: c?.sendError ?? null,
      variables: c?.variables,
      draftLines: c ? Math.min(MAX_INPUT_LINES, Math.max(1, height - 4), inputRows(c.draft, inputWidth(width))) : 1,
    };
  });
  const turns = useConsole((s) => s.chat.conversations[id]?.turns);
  const assistantName = useConsole((s) => {
    const aid = s.chat.conversations[id]?.assistantId;
    return (aid && s.assistants.data?.find((a) => a.id === aid)?.name) || 'Assistant';
  });
  const rememberedTotal = useConsole((s) => s.chat.index.data?.find((e) => e.id === id)?.totalCost);
  const scroll = useTopView().scroll;
  const actions = useActions();
  const [editingVars, setEditingVars] = useState(false);

  const waiting = !turns?.length && meta.status !== 'ready';
  // Before the conversation is in: back, or (once loading it failed) load it again.
  useBindings(
    CHAT,
    {
      leaveChat: () => actions.back(),
      retry: meta.status === 'error' && (() => void actions.openSession(id)),
    } satisfies Keys,
    { priority: Priority.Screen, active: waiting },
  );
  // Typed ahead (the first words of a message, typed as the chat opened): they wait for the input.
  const failed = waiting && meta.status === 'error';
  useWaitKeys(failed ? 'ready' : waiting || !turns || !meta.variables ? 'waiting' : 'ready');
  if (failed) return <ErrorState what={`session ${id}`} message={meta.error} />;
  if (waiting || !turns || !meta.variables) return <Loading what={`session ${id}`} />;

  const vars = Object.entries(meta.variables);
  const priced = turns.some((t) => t.cost != null);
  // The index keeps the total across restarts (and counts turns sent by `chat send`); turns loaded from the service carry no cost.
  const total = rememberedTotal ?? (priced ? totalCost(turns) : undefined);
  const title = [
    assistantName,
    meta.name === `Chat with ${assistantName}` ? '' : meta.name, // the service's default name says nothing new
    count(turns.length, 'message'),
    total !== undefined ? `total ${money(total)}` : '',
    vars.length ? `vars ${vars.map(([k, v]) => `${k}=${v}`).join(' ')}` : `${describeKey(keysAt(keymap.binding(VARIABLES)!, 'chat')[0])} variables`,
  ]
    .filter(Boolean)
    .join(' · ');
  const errorLines = meta.sendError ? Math.min(MAX_ERROR_LINES, wrapText(`Not sent: ${meta.sendError}`, width).length) : 0;
  const refreshLine = meta.status === 'error' ? 1 : 0;
  const statusLines = Math.max(1, errorLines) + refreshLine;
  const transcriptHeight = Math.max(1, height - 1 - statusLines - meta.draftLines);
  const counts = turns.map((t) => turnLines(t, assistantName, width).length);
  const win = windowTurns(counts, transcriptHeight, scroll);
  const unset = unsetVariables(turns);
  const varsKey = describeKey(keymap.binding(VARIABLES)!.keys[0]);

  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate">
        {truncate(title, width)}
      </Text>
      {editingVars ? (
        // The editor takes the transcript's place while it is open.
        <Box height={transcriptHeight} flexDirection="column" justifyContent="flex-end" overflow="hidden">
          <VariablesEditor
            initial={meta.variables}
            width={width}
            onSave={(v) => {
              actions.setVariables(id, v);
              setEditingVars(false);
            }}
            onCancel={() => setEditingVars(false)}
          />
        </Box>
      ) : (
        <Transcript turns={turns} assistantName={assistantName} width={width} height={transcriptHeight} scroll={scroll} />
      )}
      {refreshLine ? (
        <Text color={theme.error} wrap="truncate">
          {truncate(`Could not refresh the conversation: ${meta.error}`, width)}
        </Text>
      ) : null}
      {meta.sending ? (
        <Text>
          <Spinner /> {escapeLine(assistantName)} is answering… <Elapsed since={meta.sending.startedAt} /> · Esc cancels
        </Text>
      ) : meta.sendError ? (
        <Box height={errorLines} overflow="hidden">
          <Text color={theme.error} wrap="wrap">
            Not sent: {meta.sendError}
          </Text>
        </Box>
      ) : unset.length && scroll === 0 ? (
        <Text color={theme.warning} wrap="truncate">
          {truncate(
            `${unset.map((v) => `{{${v}}}`).join(', ')} ${unset.length === 1 ? 'has' : 'have'} no value in this chat · ${varsKey} sets variables`,
            width,
          )}
        </Text>
      ) : (
        <Text dimColor wrap="truncate">
          {scroll > 0 && win.maxScroll > 0
            ? `↑ ${count(Math.min(scroll, win.maxScroll), 'line')} up · PgDn for newer`
            : win.maxScroll > 0
              ? 'PgUp for earlier messages'
              : turns.length === 0
                ? 'Say something to start.'
                : ' '}
        </Text>
      )}
      <ChatInput
        id={id}
        width={width}
        lines={meta.draftLines}
        maxScroll={win.maxScroll}
        pageSize={Math.max(1, transcriptHeight - 2)}
        active={!editingVars}
        onVariables={() => setEditingVars(true)}
      />
    </Box>
  );
}

/** The visible window of the transcript: only turns with lines in view render, each memoized. */
const Transcript = memo(function Transcript(props: { turns: Turn[]; assistantName: string; width: number; height: number; scroll: number }) {
  const counts = props.turns.map((t) => turnLines(t, props.assistantName, props.width).length);
  const win = windowTurns(counts, props.height, props.scroll);
  return (
    <Box flexDirection="column" height={props.height} width={props.width} overflow="hidden">
      {win.slices.map((s) => (
        <TurnBlock key={s.index} turn={props.turns[s.index]} assistantName={props.assistantName} width={props.width} from={s.from} to={s.to} />
      ))}
    </Box>
  );
});

const TurnBlock = memo(function TurnBlock(props: { turn: Turn; assistantName: string; width: number; from: number; to: number }) {
  const theme = useTheme();
  const lines = turnLines(props.turn, props.assistantName, props.width).slice(props.from, props.to);
  const color = props.turn.role === 'user' ? theme.accent : props.turn.role === 'assistant' ? theme.good : theme.warning;
  return (
    <>
      {lines.map((l, i) => (
        <Text key={props.from + i} color={l.heading ? color : undefined} bold={l.heading} wrap="truncate">
          {l.text || ' '}
        </Text>
      ))}
    </>
  );
});

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  const inKeyGap = useKeyGap();
  useEffect(() => {
    const t = setInterval(() => inKeyGap(() => setNow(Date.now())), 1000);
    return () => clearInterval(t);
  }, [inKeyGap]);
  return <Text dimColor>{Math.max(0, Math.floor((now - since) / 1000))}s</Text>;
}

/** The input line and the conversation's keys: Enter sends, ↑/↓ recall, PgUp/PgDn scroll, Esc cancels or goes back. */
function ChatInput(props: { id: string; width: number; lines: number; maxScroll: number; pageSize: number; active: boolean; onVariables: () => void }) {
  const theme = useTheme();
  const { id } = props;
  const draft = useConsole((s) => s.chat.conversations[id]?.draft ?? '');
  const sending = useConsole((s) => !!s.chat.conversations[id]?.sending);
  const turns = useConsole((s) => s.chat.conversations[id]?.turns);
  const actions = useActions();
  // Recall walks back through what you said in this session; `stash` is what you were typing.
  // A recall belongs to the turns it walked: once they change (a message sent), it is over.
  const [walk, setWalk] = useState<{ at: number; stash: string; turns: typeof turns } | null>(null);
  const recall = walk && walk.turns === turns ? walk : null;
  const setRecall = (r: { at: number; stash: string } | null) => setWalk(r && { ...r, turns });
  const said = (turns ?? []).filter((t) => t.role === 'user').map((t) => t.content);

  const always: Keys = {
    // The draft stays with its session: coming back shows it.
    leaveChat: () => (sending ? actions.cancelSend(id) : actions.back()),
    [Command.PageUp]: () => actions.scrollBy(props.pageSize, props.maxScroll),
    [Command.PageDown]: () => actions.scrollBy(-props.pageSize, props.maxScroll),
  };
  // While the assistant answers, only those: every other key waits for the answer (modal).
  useBindings(
    CHAT,
    sending
      ? always
      : ({
          ...always,
          send: () => void actions.sendMessage(id).then((ok) => ok && actions.scrollBy(-Infinity, props.maxScroll)),
          variables: props.onVariables,
          saveAsTest: () => void actions.saveChatAsScenario(id),
          // Off until something was said; ↓ only while walking back.
          recallEarlier:
            said.length > 0 &&
            (() => {
              const at = recall ? Math.max(0, recall.at - 1) : said.length - 1;
              setRecall({ at, stash: recall?.stash ?? draft });
              actions.setDraft(id, said[at]);
            }),
          recallLater:
            recall &&
            (() => {
              if (recall.at + 1 >= said.length) {
                actions.setDraft(id, recall.stash);
                setRecall(null);
              } else {
                setRecall({ ...recall, at: recall.at + 1 });
                actions.setDraft(id, said[recall.at + 1]);
              }
            }),
        } satisfies Keys),
    { priority: Priority.Screen, active: props.active, modal: sending },
  );

  // A long draft scrolls inside its box, keeping the cursor's row in view.
  return (
    <Box height={props.lines} width={props.width} overflow="hidden">
      <Text color={sending ? theme.muted : theme.warning}>› </Text>
      {sending ? (
        <Text dimColor wrap="truncate">
          {draft.replace(/\n/g, ' ↵ ')}
        </Text>
      ) : (
        <TextInput
          value={draft}
          onChange={(v) => actions.setDraft(id, v)}
          focus={props.active}
          placeholder="type a message"
          width={inputWidth(props.width)}
          rows={props.lines}
          multiline
        />
      )}
    </Box>
  );
}

/** Cells for the draft: the width less the '› ' prompt. */
function inputWidth(width: number): number {
  return Math.max(10, width - 2);
}
