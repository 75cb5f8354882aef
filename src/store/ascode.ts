// The console's `E`: an assistant as the same YAML `assistants pull` writes, edited in $EDITOR,
// reviewed as a diff, applied as a PATCH of the changed fields with push's drift check and
// re-read. The diff, patch and drift come from src/ascode/diff.ts, as for `assistants push`.
// The editor itself is the UI's (ui/external-editor.ts, run with the terminal handed over): a screen
// passes it in as `edit`, so the store never touches the terminal.
import { failure } from '../api/errors.js';
import { allFiles as allFilesOf } from '../api/pager.js';
import type { KbFile } from '../api/schemas.js';
import type { FileValue } from '../ascode/document.js';
import {
  describeDrift,
  driftSince,
  fieldChanges,
  KnowledgeBaseNameError,
  namesKnowledgeBaseFiles,
  patchFor,
  resolveKnowledgeBase,
  type FieldChange,
} from '../ascode/diff.js';
import type { NavigationActions, NavigationState } from './navigation.js';
import { topRoute } from './navigation.js';
import type { ResourcesActions } from './resources.js';
import type { SliceCreator } from './types.js';
import type { UiActions } from './ui.js';

/** Runs the user's editor on `text` (shown as `fileName`) and resolves with what they saved. */
export type EditText = (text: string, fileName: string) => Promise<string>;

interface AssistantEdit {
  id: string;
  name: string;
  /** The service's copy when the editor opened: the base of the drift check. */
  base: FileValue;
  /** What the editor saved, parsed (knowledge-base names resolved). */
  edited: FileValue;
  changes: FieldChange[];
  status: 'review' | 'applying';
  /** Why the last apply was refused or failed. */
  error?: string;
}

export interface AsCodeState {
  assistantEdit: AssistantEdit | null;
}

export interface AsCodeActions {
  /** Opens assistant `id` in the editor; on a change, shows the diff (route `assistant-yaml`). */
  editAssistantAsCode(id: string, edit: EditText): Promise<void>;
  /** Enter on the diff: PATCH the changed fields unless the service changed since the editor opened. */
  applyAssistantEdit(): Promise<void>;
  /** Esc on the diff. */
  discardAssistantEdit(): void;
}

type Full = AsCodeState & NavigationState & { actions: AsCodeActions & UiActions & NavigationActions & ResourcesActions };

class EditRejected extends Error {}

const NOTE = ['Lines starting with # on top are ignored. Save and quit to review the changes; save an empty file to cancel.'];

export const createAsCodeSlice: SliceCreator<AsCodeState, AsCodeActions, Full> = (set, get, { api }) => {
  /** An external editor is open on an assistant's YAML: a second edit waits. */
  let editing = false;
  const allFiles = (): Promise<KbFile[]> => allFilesOf(api);

  return {
    state: { assistantEdit: null },
    actions: {
      async editAssistantAsCode(id, edit) {
        const { flash, push } = get().actions;
        if (editing) return;
        editing = true;
        try {
          // The YAML parser loads with the first `E`, not with the console.
          const { AssistantFileError, headerComment, parseAssistantYaml, renderAssistantYaml, toFileValue, withoutHeaderComments } =
            await import('../ascode/document.js');
          let assistant;
          try {
            assistant = await api.getAssistant(id);
          } catch (err) {
            return flash(`Could not load the assistant to edit: ${failure(err).message}`, 'error');
          }
          const base = toFileValue(assistant);
          const name = assistant.name ?? id;
          const fileName = `${id}.assistant.yaml`;
          let text = renderAssistantYaml(base, NOTE);
          // As kubectl edit: an invalid file reopens with the error on top and the text kept.
          for (;;) {
            let saved: string;
            try {
              saved = await edit(text, fileName);
            } catch (err) {
              return flash(`Edit cancelled: ${err instanceof Error ? err.message : String(err)}`, 'error');
            }
            const body = withoutHeaderComments(saved);
            if (body.trim() === '') return flash('Edit cancelled: the file was saved empty');
            let edited: FileValue;
            try {
              const parsed = parseAssistantYaml(body, fileName);
              if (parsed.id !== undefined && parsed.id !== id)
                throw new EditRejected(`id: it must stay ${id} (this edits that assistant; to copy it, use switchboard assistants clone)`);
              edited = namesKnowledgeBaseFiles(parsed.value) ? resolveKnowledgeBase(parsed.value, await allFiles()) : parsed.value;
            } catch (err) {
              if (!(err instanceof AssistantFileError || err instanceof KnowledgeBaseNameError || err instanceof EditRejected)) {
                return flash(`Edit cancelled: ${failure(err).message}`, 'error');
              }
              const where = err instanceof AssistantFileError ? `line ${err.line}, column ${err.column}: ${err.problem}` : err.message;
              text = headerComment([`Error: ${where}`, ...NOTE]) + body;
              continue;
            }
            const changes = fieldChanges(base, edited);
            if (changes.length === 0) return flash(`No changes to ${name}`);
            set({ assistantEdit: { id, name, base, edited, changes, status: 'review' } });
            const top = topRoute(get());
            if (top.name !== 'assistant-yaml') push({ name: 'assistant-yaml', id });
            return;
          }
        } finally {
          editing = false;
        }
      },

      async applyAssistantEdit() {
        const cur = get().assistantEdit;
        if (!cur || cur.status === 'applying') return;
        const { flash, back, loadAssistant, loadAssistants } = get().actions;
        set({ assistantEdit: { ...cur, status: 'applying', error: undefined } });
        const fail = (error: string) => {
          set({ assistantEdit: { ...cur, status: 'review', error } });
          flash(error, 'error');
        };
        try {
          const { toFileValue } = await import('../ascode/document.js');
          const service = toFileValue(await api.getAssistant(cur.id));
          const drift = driftSince(cur.base, service, cur.edited);
          if (drift) return fail(`Not applied: ${describeDrift(drift, 'you opened it')}. Esc, then E to edit the service's copy again.`);
          const patch = patchFor(service, cur.edited);
          if (Object.keys(patch).length === 0) {
            set({ assistantEdit: null });
            back();
            return flash(`No changes to ${cur.name}: the service already has them`);
          }
          const updated = (await api.updateAssistant(cur.id, patch)).record;
          set({ assistantEdit: null });
          if (topRoute(get()).name === 'assistant-yaml') back();
          void loadAssistant(cur.id);
          void loadAssistants({ force: true });
          if (updated?.notApplied.length) flash(`Saved ${cur.name}, but the service did not apply: ${updated.notApplied.join(', ')}`, 'error');
          else flash(`Saved ${cur.name}: ${Object.keys(patch).join(', ')}`);
        } catch (err) {
          fail(`Could not save the assistant: ${failure(err).message}`);
        }
      },

      discardAssistantEdit() {
        const cur = get().assistantEdit;
        set({ assistantEdit: null });
        if (topRoute(get()).name === 'assistant-yaml') get().actions.back();
        if (cur) get().actions.flash(`Discarded the edit of ${cur.name}`);
      },
    },
  };
};
