// The chat's routes: the sessions, a new chat, and a conversation.
import type { RouteSpecs } from '../route-spec.js';

export const CHAT = {
  chat: {
    title: () => 'Chat',
    contexts: ['sessions', 'list', 'global'],
    component: () => import('./Sessions.js').then((m) => m.ChatSessions),
    enter(r, a) {
      void a.loadAssistants();
      // `:chat <id>` and `chat --assistant <id>` ask for a conversation: it takes the list's place.
      if (r.sessionId) return a.showConversation(r.sessionId, r);
      if (r.assistantId) return void a.startChat(r.assistantId);
      a.loadSessionIndex();
    },
    palette: { name: 'chat', aliases: ['ch'], arg: 'session id', open: (id) => [id ? { name: 'chat', sessionId: id } : { name: 'chat' }] },
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
    component: () => import('./Conversation.js').then((m) => m.Conversation),
    enter(r, a) {
      void a.loadAssistants();
      void a.openSession(r.sessionId);
    },
  },
} satisfies RouteSpecs<'chat' | 'chat-new' | 'chat-session'>;
