// Scenario files (`*.test.yaml` / `*.test.yml`): the zod schema that validates them (and is
// published as JSON Schema for editors), and a parser that keeps YAML positions so that an
// unknown key, a wrong type or a bad regular expression is reported as file:line:column.
import { basename } from 'node:path';
// A namespace import keeps the bundle to what is used (see src/sandbox/routes/chats.ts).
import * as z from 'zod';
import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { AliasBombError, valueOf } from '../yaml.js';
import { brandError, InputError } from '../api/errors.js';

function checkRegex(source: string, ctx: { addIssue(issue: { code: 'custom'; message: string; input: unknown }): void }): void {
  try {
    new RegExp(source, 'i');
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${(err as Error).message}`, input: source });
  }
}

const ExpectSchema = z
  .strictObject({
    contains: z.array(z.string()).optional().describe('every string must appear in the reply (case-insensitive)'),
    notContains: z.array(z.string()).optional().describe('none of these strings may appear in the reply (case-insensitive)'),
    matches: z.string().superRefine(checkRegex).optional().describe('a JavaScript regular expression the reply must match (flag i)'),
    maxLatencyMs: z.number().positive().optional().describe('longest time from the request to the reply, in milliseconds'),
    maxCost: z.number().nonnegative().optional().describe("highest cost of this turn's chat, as the service reports it"),
    snapshot: z.boolean().optional().describe('the reply must equal the one stored by --update-snapshots (<name>.snap.yaml beside the file)'),
  })
  .describe('what the reply to this turn must satisfy');

const VariableValue = z.union([z.string(), z.number(), z.boolean()]);

const TurnSchema = z.strictObject({
  user: z.string().min(1).describe('what the user says'),
  variables: z
    .record(z.string(), VariableValue)
    .optional()
    .describe("sent with this turn only, over the scenario's `variables` (a chat whose variables were set part-way through, saved as it happened)"),
  expect: ExpectSchema.optional(),
});

const SimulateSchema = z
  .strictObject({
    persona: z.string().min(1).describe("the simulated caller's system prompt: who they are and what they want"),
    maxTurns: z.number().int().min(1).max(100).describe('the most caller lines to send to the assistant under test'),
    stopWhen: z
      .string()
      .min(1)
      .superRefine(checkRegex)
      .optional()
      .describe('a phrase or JavaScript regular expression (flag i): the conversation ends when either side says it'),
  })
  .describe('a simulated caller (itself an assistant on the target) talks to the assistant under test, after any scripted turns');

const JudgeSchema = z
  .strictObject({
    rubric: z.string().min(1).describe('what a good conversation does; a judge assistant scores the transcript against it from 0 to 1'),
    threshold: z.number().min(0).max(1).optional().describe('the lowest passing score (default 0.7)'),
  })
  .describe('a rubric judged by a judge assistant on the target');

const ScenarioSchema = z
  .strictObject({
    name: z.string().min(1).optional().describe('default: the file name'),
    assistant: z.string().min(1).describe('an assistant id, or its exact name'),
    variables: z.record(z.string(), VariableValue).optional().describe('sent as assistantOverrides.variableValues on every turn'),
    turns: z.array(TurnSchema).min(1).optional(),
    simulate: SimulateSchema.optional(),
    judge: z.array(JudgeSchema).min(1).optional().describe('rubrics the whole transcript is judged against'),
  })
  .refine((s) => s.turns !== undefined || s.simulate !== undefined, { message: 'a scenario needs `turns`, `simulate` or both' })
  .describe('one conversation with an assistant, run in a new chat session');

const ScenarioListSchema = z.strictObject({
  scenarios: z.array(ScenarioSchema).min(1),
});

export type Expect = z.infer<typeof ExpectSchema>;
export type Judge = z.infer<typeof JudgeSchema>;
type ScenarioInput = z.infer<typeof ScenarioSchema>;

/** Where something is in a file, 1-based. */
export interface Position {
  line: number;
  col: number;
}

export interface Scenario extends ScenarioInput {
  name: string;
  /** The file it came from, as given (relative paths stay relative). */
  file: string;
  /** Where the scenario and its `assistant` value start, for errors found later (an unknown assistant). */
  at: Position;
  assistantAt: Position;
}

export interface ScenarioFile {
  path: string;
  scenarios: Scenario[];
}

/** An invalid scenario file: the message starts with file:line:column. */
export class ScenarioError extends InputError {
  override name = 'ScenarioError';
  constructor(
    readonly file: string,
    readonly at: Position,
    readonly problem: string,
  ) {
    super(`${file}:${at.line}:${at.col}: ${problem}`);
  }
}

export const SCENARIO_FILE = /\.test\.ya?ml$/i;

/** The scenario name a file gives by default: its name without `.test.yaml`. */
export function baseName(file: string): string {
  return basename(file)
    .replace(SCENARIO_FILE, '')
    .replace(/\.ya?ml$/i, '');
}

/** The JSON Schema of a scenario file (one scenario, or several under `scenarios`). */
export function scenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(z.union([ScenarioSchema, ScenarioListSchema]), { target: 'draft-2020-12' }) as Record<string, unknown>;
  const { $schema, ...rest } = schema;
  return {
    $schema,
    title: 'Switchboard scenario file (*.test.yaml)',
    description: 'Conversation tests run by `switchboard test`: one scenario, or several under `scenarios`.',
    ...rest,
  };
}

type Path = readonly PropertyKey[];

/** The YAML node at `path`, or the nearest ancestor that exists. */
function nodeAt(doc: Document, path: Path): Node | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = (n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as unknown[], true)) as Node | null | undefined;
    if (node && typeof node === 'object' && 'range' in node && node.range) return node;
  }
  return undefined;
}

/** The key node of `key` in the map at `path` (for "unknown key" errors). */
function keyAt(doc: Document, path: Path, key: string): Node | undefined {
  const map = path.length === 0 ? doc.contents : doc.getIn(path as unknown[], true);
  if (!isMap(map)) return undefined;
  const pair = map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  return pair && isScalar(pair.key) ? pair.key : undefined;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length
    ? `${issue.path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '')}: `
    : '';
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown key "${issue.keys[0]}"${issue.path.length ? ` in ${where.slice(0, -2)}` : ''}`;
    case 'invalid_type':
      if (issue.input === undefined) return `${where}missing (required)`;
      return (
        `${where}expected` +
        ` ${issue.expected === 'array' ? 'a list' : issue.expected === 'object' ? 'a map' : issue.expected === 'record' ? 'a map' : `a ${issue.expected}`}, ` +
        `got ${typeName(issue.input)}`
      );
    case 'invalid_union':
      return `${where}expected text, a number or true/false, got ${typeName(issue.input)}`;
    case 'too_small':
      return `${where}${issue.origin === 'array' ? 'must not be empty' : issue.origin === 'string' ? 'must not be empty' : issue.message}`;
    default:
      return `${where}${issue.message}`;
  }
}

function typeName(v: unknown): string {
  if (v === null) return 'nothing (null)';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  if (typeof v === 'string') return `text "${v.length > 40 ? `${v.slice(0, 37)}…` : v}"`;
  return `${typeof v} ${String(v)}`;
}

/**
 * Parses and validates one scenario file's text. Throws ScenarioError (file:line:column) for
 * invalid YAML, an unknown key, a wrong type, a bad regular expression or a repeated name.
 */
export function parseScenarioFile(file: string, text: string): ScenarioFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const pos = (offset: number): Position => lineCounter.linePos(offset);
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const at = e.linePos?.[0] ?? pos(e.pos[0]);
    throw new ScenarioError(file, at, `invalid YAML: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  let value: unknown;
  try {
    value = valueOf(doc);
  } catch (err) {
    if (err instanceof AliasBombError) throw new ScenarioError(file, pos(err.offset), err.message);
    throw err;
  }
  const isList = value !== null && typeof value === 'object' && !Array.isArray(value) && 'scenarios' in value;
  const result = isList ? ScenarioListSchema.safeParse(value, { reportInput: true }) : ScenarioSchema.safeParse(value, { reportInput: true });
  if (!result.success) {
    // A misspelt key is the likelier mistake than the required key it leaves missing: name it first.
    const issue = result.error.issues.find((i) => i.code === 'unrecognized_keys') ?? result.error.issues[0];
    let node = issue.code === 'unrecognized_keys' ? keyAt(doc, issue.path, issue.keys[0]) : undefined;
    node ??= nodeAt(doc, issue.path);
    const at = node?.range ? pos(node.range[0]) : { line: 1, col: 1 };
    if (value === null || value === undefined) throw new ScenarioError(file, at, 'the file is empty: a scenario needs `assistant` and `turns` or `simulate`');
    throw new ScenarioError(file, at, describeIssue(issue));
  }
  const inputs: ScenarioInput[] = isList ? (result.data as z.infer<typeof ScenarioListSchema>).scenarios : [result.data as ScenarioInput];
  const prefix = isList ? ['scenarios'] : [];
  const seen = new Map<string, number>();
  const scenarios = inputs.map((s, i) => {
    const path = isList ? [...prefix, i] : [];
    const name = s.name ?? (isList ? `${baseName(file)} #${i + 1}` : baseName(file));
    const at = pos(nodeAt(doc, path)?.range?.[0] ?? 0);
    if (seen.has(name))
      throw new ScenarioError(file, pos(nodeAt(doc, [...path, 'name'])?.range?.[0] ?? 0), `two scenarios are named "${name}" (snapshots are stored by name)`);
    seen.set(name, i);
    return { ...s, name, file, at, assistantAt: pos(nodeAt(doc, [...path, 'assistant'])?.range?.[0] ?? 0) };
  });
  return { path: file, scenarios };
}

brandError(ScenarioError, 'ScenarioError');
