// Simulated callers and judges: both are assistants on the target, found (or created once) by a
// hash of their prompt in their name, so a run costs no set-up after the first and anyone reading
// the assistant list can tell they are Switchboard's. A simulated conversation bridges two chat
// sessions; a judge gets the transcript and a rubric in a new session and answers a JSON verdict.
//
//   isHelperName(name)            "switchboard caller · 1a2b3c4d" / "switchboard judge · …": ours
//   HelperAssistants              looks up and creates helpers; lists the ones it created
//   callerPrompt(persona)         the caller's system prompt
//   judgeInput(rubric, turns)     what a judge is sent
//   parseVerdict(text)            { score, reason } from a judge's answer, or undefined
import { createHash } from 'node:crypto';
import type { VoiceAgentApi } from '../api/contract.js';
import type { Assistant, AssistantInput } from '../api/schemas.js';

export type HelperKind = 'caller' | 'judge';

/** Every helper's name starts so; `switchboard test --cleanup` lists the assistants named so. */
const HELPER_PREFIX = 'switchboard ';
const HELPER_NAME = /^switchboard (caller|judge) · [0-9a-f]{8}$/;

export function isHelperName(name: string | null | undefined): name is string {
  return typeof name === 'string' && HELPER_NAME.test(name);
}

function helperName(kind: HelperKind, prompt: string): string {
  return `${HELPER_PREFIX}${kind} · ${createHash('sha256').update(prompt).digest('hex').slice(0, 8)}`;
}

// The first line marks the role; the sandbox answers a prompt that starts with it as that role.
export function callerPrompt(persona: string): string {
  return [
    '[switchboard:caller] You play a caller in a conversation test run by Switchboard.',
    'Stay in character, say one short line per turn, never say that you are an AI, and say goodbye when your goal is met.',
    'Persona:',
    persona.trim(),
  ].join('\n');
}

export const JUDGE_PROMPT = [
  '[switchboard:judge] You judge conversation tests run by Switchboard.',
  'You are sent a RUBRIC and a TRANSCRIPT between a caller and an assistant. Score how well the assistant meets the rubric.',
  'Answer with JSON only, nothing else: {"score": <a number from 0 to 1>, "reason": "<one sentence>"}.',
].join('\n');

export const JUDGE_AGAIN = 'That was not the JSON verdict. Answer with JSON only: {"score": <0..1>, "reason": "<one sentence>"}.';

export interface Line {
  role: 'caller' | 'assistant';
  text: string;
}

export function judgeInput(rubric: string, transcript: readonly Line[]): string {
  return ['RUBRIC:', rubric.trim(), '', 'TRANSCRIPT:', ...transcript.map((l) => `${l.role}: ${l.text.replace(/\s*\n\s*/g, ' ')}`)].join('\n');
}

export interface Verdict {
  score: number;
  reason: string;
}

/** The verdict in a judge's answer: the JSON alone, or the first `{…}` in prose or a code fence. */
export function parseVerdict(text: string): Verdict | undefined {
  const candidates = [text.trim(), ...(text.match(/\{[^{}]*\}/g) ?? [])];
  for (const c of candidates) {
    let v: unknown;
    try {
      v = JSON.parse(c);
    } catch {
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const { score, reason } = v as { score?: unknown; reason?: unknown };
    const n = typeof score === 'string' && score.trim() !== '' ? Number(score) : score;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 1) continue;
    return { score: n, reason: typeof reason === 'string' ? reason : '' };
  }
  return undefined;
}

/** Helper assistants on one target: found by name in the list read at start, created when absent. */
export class HelperAssistants {
  readonly #api: VoiceAgentApi;
  readonly #byName = new Map<string, Promise<string>>();
  /** Helpers this run created, for the report and --cleanup. */
  readonly created: { id: string; name: string }[] = [];

  constructor(api: VoiceAgentApi, known: readonly Assistant[]) {
    this.#api = api;
    for (const a of known) if (isHelperName(a.name) && !this.#byName.has(a.name)) this.#byName.set(a.name, Promise.resolve(a.id));
  }

  /** The helper's id; `like` lends its voice, transcriber and model provider (the target accepts those). */
  id(kind: HelperKind, prompt: string, like: Assistant | undefined, signal?: AbortSignal): Promise<string> {
    const name = helperName(kind, prompt);
    let id = this.#byName.get(name);
    if (!id) {
      id = this.#create(name, kind, prompt, like, signal);
      this.#byName.set(name, id);
      // A failed create is tried again by the next scenario rather than failing them all.
      id.catch(() => this.#byName.delete(name));
    }
    return id;
  }

  async #create(name: string, kind: HelperKind, prompt: string, like: Assistant | undefined, signal?: AbortSignal): Promise<string> {
    const model = like?.model ?? {};
    const input: AssistantInput = {
      name,
      description: kind === 'caller' ? 'Simulated caller for switchboard test' : 'Judge for switchboard test',
      voice: like?.voice ?? {},
      transcriber: like?.transcriber ?? {},
      model: {
        ...(model.provider ? { provider: model.provider } : {}),
        ...(model.model ? { model: model.model } : {}),
        messages: [{ role: 'system', content: prompt }],
      },
    };
    const written = await this.#api.createAssistant(input, { signal });
    if (!written.record) throw new Error(`the ${kind} assistant "${name}" was created but its id could not be read`);
    this.created.push({ id: written.record.id, name });
    return written.record.id;
  }
}

/** The p-th percentile (0..100) of `values`, nearest rank; undefined when empty. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
