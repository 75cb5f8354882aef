// Live chat: the sessions this console remembers (the local index — the service has no "list
// sessions"), open conversations loaded from the service (the source of truth), and sending with
// cancel. A message leaves the input only once the service has answered: a failed or cancelled
// send keeps its text, so nothing typed is ever lost.
import type { ChatSession, Message } from '../api/schemas.js';
import { ApiError, InputError, failure } from '../api/errors.js';
import { unreadNote } from '../api/envelope.js';
import { messageRole, messageText } from '../api/records.js';
import { replyMessages } from '../api/reply.js';
import {
  applyPatch,
  listSessions,
  onService,
  SessionIndexWriter,
  type RememberedSession,
  type SessionInput,
  type SessionPatch,
  type TurnStamp,
} from '../config/sessions.js';
import { serviceKey } from './cached.js';
import type { Resource, Route, SliceCreator } from './types.js';
import type { NavigationActions, NavigationState } from './navigation.js';
import type { UiActions } from './ui.js';

/** One message of a conversation; `at` and `cost` are known for the turns this console saw happen. */
/** A turn as the console shows it: the service's message read through src/api/records.ts. */
export interface Turn {
  /** 'user', 'assistant', 'system', another role as sent; undefined when the service named none */
  role?: string;
  content: string;
  at?: string;
  cost?: number;
  /** On a user turn sent from this console: the variables sent with it (none: `{}`), so a chat saved as a test sends each turn's own. */
  variables?: Variables;
}

export type Variables = Record<string, string>;

interface Conversation {
  id: string;
  status: 'loading' | 'error' | 'ready';
  /** Why loading failed (the service's message). */
  error?: string;
  name?: string;
  assistantId?: string;
  createdAt?: string;
  turns: Turn[];
  /** What is in the input line. */
  draft: string;
  /** Sent as assistantOverrides.variableValues with every message. */
  variables: Variables;
  /** The send under way: its text stays in the draft until the reply is in. */
  sending: { startedAt: number } | null;
  /** Why the last send failed; cleared by the next edit or send. */
  sendError: string | null;
  /**
   * A send that ended without an answer (cancelled, timed out, cut off, a 5xx) and that the
   * service may still have: its text and how many turns there were before it. Sending that text
   * again first asks the service whether it already has it, so a resend is never a silent duplicate.
   */
  unsettled?: { input: string; before: number };
  /** The times and costs the index kept for this session's turns (from an earlier run). */
  stamps?: TurnStamp[];
}

export interface ChatState {
  chat: {
    /** The local index of remembered sessions, most recently changed first. */
    index: Resource<RememberedSession[]>;
    conversations: Record<string, Conversation>;
    /** New chats being created, by assistant id (a failed one keeps its error). */
    starts: Record<string, { status: 'loading' | 'error'; error?: string }>;
  };
}

export interface ChatActions {
  loadSessionIndex(): void;
  /** The remembered sessions, read from disk when the index is not loaded yet; sets nothing (the palette asks while it draws). */
  rememberedSessions(): RememberedSession[];
  /** POST /sessions, remember it, and put its conversation on top in place of `asking` (if still there). */
  startChat(assistantId: string, name?: string, asking?: Route): Promise<string | null>;
  /** GET /chats/session/{id}; the index entry (last message, count) is refreshed from it. */
  openSession(id: string): Promise<void>;
  setDraft(id: string, text: string): void;
  /** Sends the draft; true when the reply is in. */
  sendMessage(id: string): Promise<boolean>;
  /** Aborts the send under way; its text stays in the input. */
  cancelSend(id: string): void;
  setVariables(id: string, vars: Variables): void;
  /** Puts the conversation on top in place of `asking`, the route that asked for it, if that is still on top. */
  showConversation(id: string, asking: Route): void;
  /** Resolves once every change to the session index made so far is on disk. */
  flushSessionIndex(): Promise<void>;
}

type Full = ChatState & Pick<NavigationState, 'stack'> & { actions: ChatActions & Pick<UiActions, 'flash'> & Pick<NavigationActions, 'replaceTop'> };

/** Variable values as the editor shows them (the index may hold any JSON value). */
export function variablesFrom(values: Record<string, unknown> | undefined): Variables {
  const out: Variables = {};
  for (const [k, v] of Object.entries(values ?? {})) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

/** The error line for a failed request: api's failure(), and its next step when there is one. */
function errorLine(err: unknown): string {
  const f = failure(err);
  return f.hint ? `${f.message} — ${f.hint}` : f.message;
}

const isAbort = (err: unknown) => failure(err).kind === 'cancelled';

/** Whether the service may have stored a message whose send failed this way (only a refusal says it did not). */
function mayHaveLanded(err: unknown): boolean {
  return !(err instanceof InputError) && !(err instanceof ApiError && err.status < 500);
}

/** Whether the service's messages hold `input` as the user's message after the `before` turns known when it was sent. */
function landedIn(messages: readonly Message[] | null | undefined, input: string, before: number): boolean {
  return (messages ?? []).slice(before).some((m) => messageRole(m) === 'user' && messageText(m) === input);
}

/** A message's own time, if the service gives one (the sandbox does not). */
function timeOf(m: Message): string | undefined {
  const t = (m as Record<string, unknown>).createdAt ?? (m as Record<string, unknown>).time ?? (m as Record<string, unknown>).timestamp;
  // Vapi gives `time` in epoch ms.
  if (typeof t === 'number' && Number.isFinite(t)) return new Date(t).toISOString();
  return typeof t === 'string' ? t : undefined;
}

/**
 * The service's messages, keeping the time and cost this console saw for the turns it already had,
 * or, for a session from an earlier run, those the index kept (`stamps`, matched by role and length).
 */
export function mergeTurns(known: Turn[], messages: readonly Message[] | null | undefined, stamps: readonly TurnStamp[] = []): Turn[] {
  return (messages ?? []).map((m, i) => {
    const k = known[i];
    const role = messageRole(m);
    const content = messageText(m);
    const stamp = stamps[i];
    const seen = k && k.role === role && k.content === content ? k : stamp && stamp.role === role && stamp.chars === content.length ? stamp : undefined;
    const kept = seen
      ? { ...(seen.at ? { at: seen.at } : {}), ...(seen.cost != null ? { cost: seen.cost } : {}), ...(seen.variables ? { variables: seen.variables } : {}) }
      : {};
    return { ...(role !== undefined ? { role } : {}), content, ...kept, ...(timeOf(m) ? { at: timeOf(m) } : {}) };
  });
}

/** What the index keeps of each turn: its time and cost, and its role and length to know it again. */
function stampsOf(turns: readonly Turn[]): TurnStamp[] {
  return turns.map((t) => ({
    ...(t.role !== undefined ? { role: t.role } : {}),
    chars: t.content.length,
    ...(t.at ? { at: t.at } : {}),
    ...(t.cost != null ? { cost: t.cost } : {}),
    ...(t.variables ? { variables: t.variables } : {}),
  }));
}

/** The session total of the turn costs known here. */
export function totalCost(turns: Turn[]): number {
  return turns.reduce((sum, t) => sum + (t.cost ?? 0), 0);
}

const blank = (id: string, remembered?: RememberedSession): Conversation => ({
  id,
  status: 'loading',
  name: remembered?.name,
  assistantId: remembered?.assistantId,
  createdAt: remembered?.createdAt,
  turns: [],
  draft: '',
  variables: variablesFrom(remembered?.variableValues),
  sending: null,
  sendError: null,
  stamps: remembered?.turnStamps,
});

export const createChatSlice: SliceCreator<ChatState, ChatActions, Full> = (set, get, { api, target, onDispose, viewKey }) => {
  const profile = target.profile;
  const service = serviceKey(target);
  const dir = target.dataDir;
  /** Sends in flight, by session id. */
  const inFlight = new Map<string, AbortController>();
  /** Bumped when a send lands in a session, so a slower load started earlier cannot overwrite newer turns. */
  const versions = new Map<string, number>();

  const conv = (id: string) => get().chat.conversations[id];
  const patch = (id: string, p: Partial<Conversation> | ((c: Conversation) => Partial<Conversation>)) =>
    set((s) => {
      const c = s.chat.conversations[id];
      if (!c) return {};
      const next = { ...c, ...(typeof p === 'function' ? p(c) : p) };
      return { chat: { ...s.chat, conversations: { ...s.chat.conversations, [id]: next } } };
    });
  const setStart = (assistantId: string, v: ChatState['chat']['starts'][string] | undefined) =>
    set((s) => {
      const starts = { ...s.chat.starts };
      if (v) starts[assistantId] = v;
      else delete starts[assistantId];
      return { chat: { ...s.chat, starts } };
    });

  /**
   * Changes to the local index are shown at once and written off the render path: the writer
   * batches them, merges them into the file as it is on disk under a lock (another console or a
   * command may have changed it), and flushes what is left when the console closes. A failed
   * write never breaks the chat: it is flashed and the chat goes on.
   */
  const writer = new SessionIndexWriter(profile, dir, {
    onWritten: (all) => {
      if (get().chat.index.status === 'ready')
        set((s) => ({ chat: { ...s.chat, index: { status: 'ready', data: onService(all, service), fetchedAt: Date.now() } } }));
    },
    onError: (err) => get().actions.flash(`Could not remember the session: ${failure(err).message}`, 'error'),
  });
  onDispose(() => writer.flushSync());
  const remember = (asked: SessionPatch) => {
    const at = new Date().toISOString();
    // Each entry names the service it lives on: another service under this profile's name lists none of them.
    const patch = { ...asked, session: { ...asked.session, service } };
    const index = get().chat.index;
    if (index.data) {
      const data = [...index.data];
      if (applyPatch(data, { ...patch, at })) set((s) => ({ chat: { ...s.chat, index: { ...s.chat.index, data, fetchedAt: Date.now() } } }));
    }
    writer.queue({ ...patch, at });
  };

  /**
   * After a send that ended without an answer (`err`; null when checking before a resend): loads
   * the session and shows what the service has. True when it has the message (its text leaves the
   * input), false when it does not (the text stays, to send again), undefined when it cannot tell.
   */
  const reconcile = async (id: string, sent: { input: string; before: number }, err: unknown): Promise<boolean | undefined> => {
    const why = err === null ? null : isAbort(err) ? 'Cancelled' : `No answer (${failure(err).message})`;
    let session: ChatSession;
    try {
      session = await api.getSession(id);
    } catch (checkErr) {
      const line =
        `${why ?? 'Not sent'}; could not check whether the service has your message (${failure(checkErr).message}); it is still in the input, and sending it ` +
        `again checks first`;
      patch(id, { sendError: line });
      return undefined;
    }
    versions.set(id, (versions.get(id) ?? 0) + 1);
    const had = landedIn(session.messages, sent.input, sent.before);
    patch(id, (c) => ({
      turns: mergeTurns(c.turns, session.messages, c.stamps),
      // Not there yet may still mean on its way: a resend of the same text checks again.
      unsettled: had ? undefined : sent,
      ...(had && c.draft === sent.input ? { draft: '' } : {}),
    }));
    remember({ mode: 'update', session: sessionInput(session, conv(id)!) });
    const replied = had && (session.messages ?? []).slice(sent.before).some((m) => messageRole(m) !== 'user');
    const { flash } = get().actions;
    if (had) flash(`${why ? `${why}, but the` : 'Not sent again: the'} service already had your message${replied ? '; its reply is shown' : ''}`);
    else if (why) flash(`${why}: the service does not have your message; it is still in the input`);
    return had;
  };

  const sessionInput = (s: ChatSession, c: Conversation): SessionInput => ({
    id: s.id,
    name: s.name ?? c.name,
    assistantId: s.assistantId ?? c.assistantId,
    createdAt: s.createdAt ?? c.createdAt,
    messages: s.messages,
    turnStamps: stampsOf(c.turns),
  });

  return {
    state: { chat: { index: { status: 'idle' }, conversations: {}, starts: {} } },
    actions: {
      loadSessionIndex() {
        try {
          const data = listSessions(profile, dir, service);
          set((s) => ({ chat: { ...s.chat, index: { status: 'ready', data, fetchedAt: Date.now() } } }));
        } catch (err) {
          set((s) => ({ chat: { ...s.chat, index: { ...s.chat.index, status: 'error', error: failure(err).message } } }));
        }
      },

      rememberedSessions() {
        const index = get().chat.index;
        if (index.data) return index.data;
        try {
          return listSessions(profile, dir, service);
        } catch {
          return []; // the id is asked of the service as typed
        }
      },

      async startChat(assistantId, name, asking = { name: 'chat', assistantId }) {
        if (get().chat.starts[assistantId]?.status === 'loading') return null;
        setStart(assistantId, { status: 'loading' });
        try {
          const created = await api.createSession(name?.trim() ? { assistantId, name: name.trim() } : { assistantId });
          const session = created.record;
          if (!session) {
            // Started, by the service's word, but with no id to open it by: say so, not "failed".
            const said = created.unread ? unreadNote('The session was started', created.unread) : 'The session was started';
            setStart(assistantId, { status: 'error', error: `${said}; its id is unknown, so it cannot be opened here` });
            return null;
          }
          setStart(assistantId, undefined);
          const c: Conversation = {
            ...blank(session.id),
            status: 'ready',
            name: session.name ?? undefined,
            assistantId: session.assistantId ?? assistantId,
            createdAt: session.createdAt ?? new Date().toISOString(),
            // The assistant's opening line, when it speaks first, is the session's first message.
            turns: mergeTurns([], session.messages).map((t) => ({ ...t, at: t.at ?? session.createdAt ?? undefined })),
          };
          set((s) => ({ chat: { ...s.chat, conversations: { ...s.chat.conversations, [c.id]: c } } }));
          remember({ mode: 'remember', session: sessionInput(session, c) });
          get().actions.showConversation(c.id, asking);
          return c.id;
        } catch (err) {
          setStart(assistantId, { status: 'error', error: errorLine(err) });
          return null;
        }
      },

      async openSession(id) {
        // The index gives the session's remembered total; read once, not per message.
        if (get().chat.index.status === 'idle') get().actions.loadSessionIndex();
        const remembered = get().chat.index.data?.find((s) => s.id === id) ?? safeFind(profile, id, dir);
        if (!conv(id)) set((s) => ({ chat: { ...s.chat, conversations: { ...s.chat.conversations, [id]: blank(id, remembered) } } }));
        else patch(id, { status: conv(id)!.turns.length || conv(id)!.status === 'ready' ? 'ready' : 'loading', error: undefined });
        const version = versions.get(id) ?? 0;
        try {
          const session = await api.getSession(id);
          if ((versions.get(id) ?? 0) !== version) return; // a send landed meanwhile: its turns are newer
          patch(id, (c) => ({
            status: 'ready',
            error: undefined,
            name: session.name ?? c.name,
            assistantId: session.assistantId ?? c.assistantId,
            createdAt: session.createdAt ?? c.createdAt,
            turns: mergeTurns(c.turns, session.messages, c.stamps),
          }));
          remember({ mode: 'update', session: sessionInput(session, conv(id)!) });
        } catch (err) {
          patch(id, { status: 'error', error: errorLine(err) });
        }
      },

      setDraft(id, text) {
        patch(id, (c) => (c.sending ? {} : { draft: text, sendError: null }));
      },

      async sendMessage(id) {
        let c = conv(id);
        if (!c || c.sending || !c.draft.trim()) return false;
        if (c.unsettled && c.unsettled.input === c.draft) {
          // The same text again after a send that ended without an answer: the service may have it.
          patch(id, { sending: { startedAt: Date.now() }, sendError: null });
          const had = await reconcile(id, c.unsettled, null);
          patch(id, { sending: null });
          if (had !== false) return false;
          c = conv(id)!;
        }
        const input = c.draft;
        const before = c.turns.length;
        const controller = new AbortController();
        inFlight.set(id, controller);
        const startedAt = Date.now();
        patch(id, { sending: { startedAt }, sendError: null });
        try {
          const vars = Object.keys(c.variables).length ? c.variables : undefined;
          const sent = await api.sendChat({ sessionId: id, input, ...(vars ? { variableValues: vars } : {}) }, { signal: controller.signal });
          const chat = sent.record;
          if (!chat) {
            // Sent, by the service's word, without a reply we can read: the session, read again, has it.
            patch(id, { sending: null, sendError: null, unsettled: { input, before } });
            await reconcile(id, { input, before }, null);
            if (sent.unread) get().actions.flash(unreadNote('Sent', sent.unread));
            return true;
          }
          versions.set(id, (versions.get(id) ?? 0) + 1);
          const at = chat.createdAt ?? new Date().toISOString();
          const replies: Turn[] = replyMessages(chat).map((m, i) => {
            const role = messageRole(m);
            return { ...(role !== undefined ? { role } : {}), content: messageText(m), at, ...(i === 0 && chat.cost != null ? { cost: chat.cost } : {}) };
          });
          patch(id, (cur) => ({
            sending: null,
            draft: '',
            unsettled: undefined,
            turns: [...cur.turns, { role: 'user', content: input, at: new Date(startedAt).toISOString(), variables: { ...vars } }, ...replies],
          }));
          const after = conv(id)!;
          remember({
            mode: 'remember',
            session: {
              id,
              name: after.name,
              assistantId: after.assistantId ?? chat.assistantId,
              createdAt: after.createdAt,
              messages: after.turns,
              turnStamps: stampsOf(after.turns),
              variableValues: after.variables,
            },
            ...(chat.cost != null ? { addCost: chat.cost } : {}),
          });
          return true;
        } catch (err) {
          if (mayHaveLanded(err)) {
            // Cancelled, timed out or cut off: the service may have the message, and the reply.
            patch(id, { sending: null, sendError: null, unsettled: { input, before } });
            await reconcile(id, { input, before }, err);
            return false;
          }
          patch(id, { sending: null, sendError: errorLine(err) });
          return false;
        } finally {
          if (inFlight.get(id) === controller) inFlight.delete(id);
        }
      },

      showConversation(id, asking) {
        // A conversation opened straight from the command line or the palette gets the sessions
        // list under it, so Esc leads somewhere.
        const { stack } = get();
        if (viewKey(stack[stack.length - 1]) !== viewKey(asking)) return; // the user has moved on
        get().actions.replaceTop({ name: 'chat-session', sessionId: id }, { name: 'chat' });
      },

      cancelSend(id) {
        inFlight.get(id)?.abort();
      },

      flushSessionIndex() {
        return writer.flush();
      },

      setVariables(id, vars) {
        patch(id, { variables: vars });
        const c = conv(id);
        if (!c) return;
        remember({ mode: 'remember', session: { id, name: c.name, assistantId: c.assistantId, createdAt: c.createdAt, variableValues: vars } });
        get().actions.flash(Object.keys(vars).length ? `Variables set: ${Object.keys(vars).join(', ')}` : 'Variables cleared');
      },
    },
  };
};

/** The index entry of a session, or nothing if the index can't be read (the chat still opens). */
function safeFind(profile: string, id: string, dir: string | undefined): RememberedSession | undefined {
  try {
    return listSessions(profile, dir).find((s) => s.id === id);
  } catch {
    return undefined;
  }
}
