// Which component shows each route, its title (for breadcrumbs) and its key contexts (footer, dispatch).
import type { ComponentType } from 'react';
import type { Route, RouteName } from '../../store/index.js';
import type { KeyContext } from '../keymap.js';
import { AssistantsList } from './assistants/AssistantsList.js';
import { AssistantDetail } from './assistants/AssistantDetail.js';
import { AssistantCreate, AssistantEdit, AssistantKnowledgeBase } from './assistants/AssistantForms.js';
import { NumberLink, Numbers } from './numbers/Numbers.js';
import { Calls } from './calls/Calls.js';
import { CallDetail } from './calls/CallDetail.js';
import { CallFilters, CallOutbound } from './calls/CallForms.js';
import { ChatSessions } from './chat/Sessions.js';
import { NewChat } from './chat/NewChat.js';
import { Conversation } from './chat/Conversation.js';
import { FileDetail, FileUpload, Files } from './files/Files.js';
import { Help, JsonView } from './Help.js';

interface ScreenEntry {
  component: ComponentType<{ route: never; width: number; height: number }>;
  contexts: KeyContext[];
  title: (r: never) => string;
}

const entry = <N extends RouteName>(component: ComponentType<{ route: Extract<Route, { name: N }>; width: number; height: number }>, contexts: KeyContext[], title: (r: Extract<Route, { name: N }>) => string): ScreenEntry =>
  ({ component, contexts, title }) as unknown as ScreenEntry;

const form: KeyContext[] = ['form'];

export const SCREENS: Record<RouteName, ScreenEntry> = {
  assistants: entry<'assistants'>(AssistantsList, ['global', 'list', 'assistants'], () => 'Assistants'),
  assistant: entry<'assistant'>(AssistantDetail, ['global', 'detail', 'assistant'], (r) => `assistant ${r.id}`),
  'assistant-new': entry<'assistant-new'>(AssistantCreate, form, () => 'new assistant'),
  'assistant-edit': entry<'assistant-edit'>(AssistantEdit, form, () => 'edit'),
  'assistant-kb': entry<'assistant-kb'>(AssistantKnowledgeBase, ['picker'], () => 'knowledge base'),
  numbers: entry<'numbers'>(Numbers, ['global', 'list', 'numbers'], () => 'Numbers'),
  'number-link': entry<'number-link'>(NumberLink, ['picker'], () => 'link assistant'),
  calls: entry<'calls'>(Calls, ['global', 'list', 'calls'], () => 'Calls'),
  call: entry<'call'>(CallDetail, ['global', 'detail', 'call'], (r) => `call ${r.id}`),
  'call-filters': entry<'call-filters'>(CallFilters, form, () => 'filters'),
  'call-outbound': entry<'call-outbound'>(CallOutbound, form, () => 'outbound call'),
  chat: entry<'chat'>(ChatSessions, ['global', 'list', 'sessions'], () => 'Chat'),
  'chat-new': entry<'chat-new'>(NewChat, ['picker'], () => 'new chat'),
  // No 'global': the input line has the keys, so q and the digits are text here.
  'chat-session': entry<'chat-session'>(Conversation, ['chat'], (r) => `session ${r.sessionId}`),
  files: entry<'files'>(Files, ['global', 'list', 'files'], () => 'Files'),
  file: entry<'file'>(FileDetail, ['global', 'detail', 'file'], (r) => `file ${r.id}`),
  'file-upload': entry<'file-upload'>(FileUpload, form, () => 'upload'),
  help: entry<'help'>(Help, ['global', 'detail'], () => 'Help'),
  json: entry<'json'>(JsonView, ['global', 'detail'], (r) => `JSON ${r.title}`),
};

export function titleOf(r: Route): string {
  return (SCREENS[r.name].title as (r: Route) => string)(r);
}
