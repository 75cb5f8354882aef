// The chat's routes: the sessions, a new chat, and a conversation.
import { defineRoutes, type NoParams } from '../route-spec.js';
import { findRecords } from '../find.js';
import { Footer } from '../../keymap.js';
import { NEW, copyIdKey, selectedOf, type KeyShape } from '../keys.js';
import type { Selected } from '../../hooks/selection.js';

/** What the sessions list gives its keys: the session under the cursor, and the key that opens its id prompt. */
export interface SessionsSelection extends Selected {
  askId?: () => void;
}

/**
 * A conversation's keys: declared here, bound by Conversation.tsx by these names (they work on its
 * input line, its walk back through what was said and its modal send, which only it holds).
 */
const CONVERSATION_KEYS = {
  retry: { keys: [{ char: 'r' }], hint: 'load the session again', footer: Footer.High },
  send: { keys: [{ key: 'return' }], hint: 'send', footer: Footer.High, write: true },
  recallEarlier: { keys: [{ key: 'upArrow' }], hint: 'earlier input', footer: Footer.Low },
  recallLater: { keys: [{ key: 'downArrow' }], hint: 'later input' },
  variables: { keys: [{ char: 'v', ctrl: true }], hint: 'variables', footer: Footer.Normal },
  leaveChat: { keys: [{ key: 'escape' }], hint: 'back (or cancel a send; the draft is kept)', footer: Footer.High },
  saveAsTest: { keys: [{ char: 't', ctrl: true }], hint: 'save as test', footer: Footer.Low, write: true },
} satisfies Record<string, KeyShape>;

/** The names Conversation.tsx binds its keys by. */
export type ConversationKey = keyof typeof CONVERSATION_KEYS;

export const CHAT = defineRoutes<{
  chat: { sessionId?: string; assistantId?: string };
  'chat-new': NoParams;
  'chat-session': { sessionId: string };
}>()({
  chat: {
    title: () => 'Chat',
    contexts: ['sessions', 'list', 'global'],
    jump: '4',
    help: 'Chat',
    component: () => import('./Sessions.js').then((m) => m.ChatSessions),
    firstFrame: () => 'Loading chat sessions…',
    keys: {
      new: { ...NEW, run: ({ actions }) => actions.push({ name: 'chat-new' }) },
      // The prompt for it is the list's own (Sessions.tsx gives the key that opens it).
      openSessionId: {
        keys: [{ char: 'o' }],
        hint: 'open a session id',
        footer: Footer.Normal,
        run: (a) => selectedOf<SessionsSelection>(a)?.askId?.(),
      },
      copyId: copyIdKey('session'),
    },
    enter(r, a) {
      void a.loadAssistants();
      // `:chat <id>` and `chat --assistant <id>` ask for a conversation: it takes the list's place.
      if (r.sessionId) return a.showConversation(r.sessionId, r);
      if (r.assistantId) return void a.startChat(r.assistantId);
      a.loadSessionIndex();
    },
    palette: {
      name: 'chat',
      aliases: ['ch'],
      arg: 'session id or name',
      rest: true,
      open: (id) => [id ? { name: 'chat', sessionId: id } : { name: 'chat' }],
      // The sessions this profile remembers (the list `4` shows); an id found there by its end or
      // name opens that session, one not there is asked of the service as typed.
      find: (arg, s) => ({
        items: findRecords(
          arg,
          s.actions.rememberedSessions(),
          (x) => x.name,
          (x) => [x.name, x.createdAt, x.id].filter(Boolean).join(' · '),
        ),
        what: 'session',
        open: 'session',
        complete: false,
      }),
    },
  },
  'chat-new': {
    title: () => 'new chat',
    contexts: ['picker'],
    component: () => import('./NewChat.js').then((m) => m.NewChat),
    enter: (_r, a) => void a.loadAssistants(),
  },
  'chat-session': {
    title: (r) => `session ${r.sessionId}`,
    // No 'global': the input line has the keys, so q and the digits are text here.
    contexts: ['chat'],
    help: 'Chat',
    component: () => import('./Conversation.js').then((m) => m.Conversation),
    keys: CONVERSATION_KEYS,
    enter(r, a) {
      void a.loadAssistants();
      void a.openSession(r.sessionId);
    },
  },
});
