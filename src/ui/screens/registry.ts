// Which component shows each route (titles and key contexts are in routes.ts).
import type { ComponentType } from 'react';
import type { Route, RouteName } from '../../store/index.js';
import { ROUTES, type RouteInfo } from './routes.js';
import { AssistantsList } from './assistants/AssistantsList.js';
import { AssistantDetail } from './assistants/AssistantDetail.js';
import { AssistantYamlChanges } from './assistants/AssistantYamlChanges.js';
import { AssistantCreate, AssistantEdit, AssistantKnowledgeBase } from './assistants/AssistantForms.js';
import { NumberLink, Numbers } from './numbers/Numbers.js';
import { Calls } from './calls/Calls.js';
import { CallDetail } from './calls/CallDetail.js';
import { CallFilters, CallOutbound } from './calls/CallForms.js';
import { CallStats } from './calls/CallStats.js';
import { CallSearch } from './calls/CallSearch.js';
import { ChatSessions } from './chat/Sessions.js';
import { NewChat } from './chat/NewChat.js';
import { Conversation } from './chat/Conversation.js';
import { FileDetail, FileUpload, Files } from './files/Files.js';
import { Help, JsonView } from './Help.js';
import { TestResultDetail, TestResults } from './tests/TestResults.js';

interface ScreenEntry extends RouteInfo {
  component: ComponentType<{ route: never; width: number; height: number }>;
}

const entry = <N extends RouteName>(name: N, component: ComponentType<{ route: Extract<Route, { name: N }>; width: number; height: number }>): ScreenEntry =>
  ({ ...ROUTES[name], component }) as unknown as ScreenEntry;

export const SCREENS: Record<RouteName, ScreenEntry> = {
  assistants: entry('assistants', AssistantsList),
  assistant: entry('assistant', AssistantDetail),
  'assistant-new': entry('assistant-new', AssistantCreate),
  'assistant-edit': entry('assistant-edit', AssistantEdit),
  'assistant-kb': entry('assistant-kb', AssistantKnowledgeBase),
  'assistant-yaml': entry('assistant-yaml', AssistantYamlChanges),
  numbers: entry('numbers', Numbers),
  'number-link': entry('number-link', NumberLink),
  calls: entry('calls', Calls),
  call: entry('call', CallDetail),
  'call-search': entry('call-search', CallSearch),
  'call-stats': entry('call-stats', CallStats),
  'call-filters': entry('call-filters', CallFilters),
  'call-outbound': entry('call-outbound', CallOutbound),
  chat: entry('chat', ChatSessions),
  'chat-new': entry('chat-new', NewChat),
  'chat-session': entry('chat-session', Conversation),
  files: entry('files', Files),
  file: entry('file', FileDetail),
  'file-upload': entry('file-upload', FileUpload),
  tests: entry('tests', TestResults),
  'test-result': entry('test-result', TestResultDetail),
  help: entry('help', Help),
  json: entry('json', JsonView),
};

export { titleOf } from './routes.js';
