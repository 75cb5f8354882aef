// The commands on one assistant that its row in the list and its own page both offer (its related records among them). Each screen
// says, through `on`, how a command reaches the assistant's id and whether it is on without one.
import { useActions } from '../../../store/index.js';
import type { Bindings } from '../../hooks/bindings.js';
import { useEditText } from '../../hooks/useEditText.js';
import { Command } from '../../keymap.js';

type On = (fn: (id: string) => void) => (() => void) | undefined;

export function useAssistantBindings(on: On): Bindings {
  const actions = useActions();
  const editText = useEditText();
  const editAsCode = (id: string) => (editText ? void actions.editAssistantAsCode(id, editText) : actions.flash('No terminal to run an editor on', 'error'));
  return {
    [Command.Edit]: on((id) => actions.push({ name: 'assistant-edit', id })),
    [Command.EditAsCode]: on(editAsCode),
    [Command.Clone]: on((from) => actions.push({ name: 'assistant-new', from })),
    [Command.KnowledgeBase]: on((id) => actions.push({ name: 'assistant-kb', id })),
    [Command.Chat]: on((assistantId) => actions.push({ name: 'chat', assistantId })),
    [Command.Outbound]: on((assistantId) => actions.push({ name: 'call-outbound', assistantId })),
    [Command.AssistantCalls]: on((assistantId) => actions.showRelatedCalls({ assistantId })),
    [Command.AssistantNumbers]: on((assistantId) => actions.push({ name: 'numbers', assistantId })),
  };
}
