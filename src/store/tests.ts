// Conversation tests in the console: `:test [path]` runs scenario files (src/scenarios, the same
// code as `switchboard test`) and keeps the report for the results view; a chat conversation
// can be saved as a scenario file in the tests directory. The scenario code loads on first use.
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { failure } from '../api/errors.js';
import type { ScenarioResult, TestReport } from '../scenarios/run.js';
import type { ScenarioFile } from '../scenarios/scenario.js';
import type { Call } from '../api/schemas.js';
import type { SliceCreator } from './types.js';
import type { ChatState } from './chat.js';
import type { ResourcesState } from './resources.js';
import type { UiActions } from './ui.js';

export interface TestsState {
  tests: {
    /** What was asked to run (a file or directory); undefined is the tests directory. */
    path?: string;
    /** Samples per scenario (`:test … --samples N`); one when undefined. */
    samples?: number;
    status: 'idle' | 'running' | 'done' | 'error';
    /** Why nothing could run: invalid files (one line each, file:line:column), or the service's error. */
    errors: string[];
    /** Scenarios finished so far in a run, then the whole report. */
    results: ScenarioResult[];
    report?: TestReport;
    /** How many scenarios the run has. */
    total: number;
    /** Bumped per run, so a slower earlier run cannot overwrite a newer one. */
    run: number;
  };
}

export interface TestsActions {
  /** Finds, checks and runs the scenarios under `path` (default: the tests directory), `samples` times each. */
  runTests(path?: string, samples?: number): Promise<void>;
  /** Saves the conversation as `<tests dir>/<name>.test.yaml` plus its snapshots; flashes where. */
  saveChatAsScenario(sessionId: string): Promise<string | null>;
  /** Saves a call (its full record) as a scenario in the tests directory: its caller's lines replayed, its replies snapshots. */
  saveCallAsScenario(call: Call): Promise<string | null>;
}

type Full = TestsState & ChatState & ResourcesState & { actions: TestsActions & UiActions };

/** Where `:test` looks by default and where saved chats go: ./tests, unless the console was given another. */
function testsDirOf(dir: string | undefined): string {
  return resolve(dir ?? 'tests');
}

export const createTestsSlice: SliceCreator<TestsState, TestsActions, Full> = (set, get, { api, target }) => {
  /** The run under way: a new run stops it from starting more scenarios. */
  let underWay: AbortController | undefined;
  const update = (p: Partial<TestsState['tests']>) => set((s) => ({ tests: { ...s.tests, ...p } }));
  return {
    state: { tests: { status: 'idle', errors: [], results: [], total: 0, run: 0 } },
    actions: {
      async runTests(path, samples) {
        const run = get().tests.run + 1;
        const mine = () => get().tests.run === run;
        // The run under way stops starting more scenarios.
        underWay?.abort();
        const controller = (underWay = new AbortController());
        update({ path, samples, status: 'running', errors: [], results: [], report: undefined, total: 0, run });
        try {
          const { findScenarioFiles, readScenarioFile } = await import('../scenarios/files.js');
          const { parseScenarioFile } = await import('../scenarios/scenario.js');
          const { runScenarios, selectScenarios } = await import('../scenarios/run.js');
          const dir = path ? resolve(path) : testsDirOf(target.testsDir);
          if (!path && !existsSync(dir)) throw new Error(`no tests yet: ${dir} does not exist; save a chat conversation as a test, or :test <path>`);
          const files = findScenarioFiles([dir]);
          if (files.length === 0)
            throw new Error(`no scenario files (*.test.yaml) under ${path ?? testsDirOf(target.testsDir)}; save a chat conversation as a test to make one`);
          const parsed: ScenarioFile[] = [];
          const errors: string[] = [];
          for (const f of files) {
            try {
              parsed.push(parseScenarioFile(f.path, readScenarioFile(f)));
            } catch (err) {
              errors.push(failure(err).message);
            }
          }
          if (errors.length) {
            if (mine()) update({ status: 'error', errors });
            return;
          }
          if (!mine()) return;
          update({ total: selectScenarios(parsed).length });
          const report = await runScenarios(api, parsed, {
            repeat: samples,
            concurrency: 4,
            signal: controller.signal,
            onResult: (r) => mine() && set((s) => ({ tests: { ...s.tests, results: [...s.tests.results, r] } })),
          });
          if (mine()) update({ status: 'done', report, results: report.results });
        } catch (err) {
          const f = failure(err);
          if (mine()) update({ status: 'error', errors: [f.hint ? `${f.message} — ${f.hint}` : f.message] });
        }
      },

      async saveChatAsScenario(sessionId) {
        const c = get().chat.conversations[sessionId];
        if (!c) return null;
        const assistants = get().assistants.data ?? [];
        const named = assistants.find((a) => a.id === c.assistantId)?.name;
        // The exact name keeps the file useful against another service (ids differ); an id when the name is ambiguous.
        const assistant = named && assistants.filter((a) => a.name === named).length === 1 ? named : c.assistantId;
        if (!assistant) {
          get().actions.flash('Cannot save: the assistant of this chat is not known yet', 'error');
          return null;
        }
        try {
          const { saveConversation } = await import('../scenarios/save.js');
          const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
          const path = saveConversation(testsDirOf(target.testsDir), {
            assistant,
            name: `${named ?? 'Chat'} ${stamp}`,
            variables: c.variables,
            messages: c.turns,
          });
          // The command first: a flash cut at the terminal's width must still say how to run it.
          const shown = relative(process.cwd(), path);
          get().actions.flash(`Saved as a test; run it: switchboard test ${shown.startsWith('..') ? path : shown} (or :test)`);
          return path;
        } catch (err) {
          get().actions.flash(`Could not save the chat as a test: ${failure(err).message}`, 'error');
          return null;
        }
      },

      async saveCallAsScenario(call) {
        try {
          const [{ conversationOfCall }, { saveConversation }] = await Promise.all([import('../scenarios/from-call.js'), import('../scenarios/save.js')]);
          const path = saveConversation(testsDirOf(target.testsDir), conversationOfCall(call));
          const shown = relative(process.cwd(), path);
          get().actions.flash(`Saved the call as a test; run it: switchboard test ${shown.startsWith('..') ? path : shown} (or :test)`);
          return path;
        } catch (err) {
          get().actions.flash(`Could not make a test from the call: ${failure(err).message}`, 'error');
          return null;
        }
      },
    },
  };
};
