// The sandbox's simulated callers and judges (`switchboard test`'s `simulate` and `judge`): an
// assistant whose prompt starts with [switchboard:caller] or [switchboard:judge] answers as that
// role, deterministically. The caller says its persona's goals in order, one per turn; the judge
// scores a transcript by how much of the rubric the assistant's lines contain. This checks the
// plumbing of a conversation test; it is no verdict on the quality of an assistant.

/** A session's earlier messages, as the sandbox keeps them. */
interface Message {
  role: string;
  content: string;
}

const CALLER = '[switchboard:caller]';
const JUDGE = '[switchboard:judge]';

/** The reply of a caller or judge assistant, or undefined for any other assistant. */
export function helperReply(systemPrompt: string, history: () => readonly Message[], input: string): string | undefined {
  const prompt = systemPrompt.trimStart();
  if (prompt.startsWith(CALLER)) return callerLine(personaOf(prompt), history().filter((m) => m.role === 'user').length);
  if (prompt.startsWith(JUDGE)) return verdict(input, history());
  return undefined;
}

function personaOf(prompt: string): string {
  const at = prompt.indexOf('\nPersona:\n');
  return at < 0 ? '' : prompt.slice(at + '\nPersona:\n'.length);
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const unstop = (s: string) => s.replace(/[.!?]+$/, '');

/** A persona's instruction as the caller says it: "Ask about the return window." → "Can you tell me about the return window?" */
function spoken(sentence: string): string | undefined {
  const s = unstop(sentence.trim());
  let m;
  if ((m = /^ask (?:them )?(about|for) (.+)$/i.exec(s))) return `Can you tell me ${m[1].toLowerCase()} ${m[2]}?`;
  if ((m = /^ask (?:them )?((?:whether|if|how|what|when|where|why|who|which)\b.+)$/i.exec(s))) return `I'd like to know ${m[1]}.`;
  if ((m = /^ask (?:them )?(.+)$/i.exec(s))) return `${cap(m[1])}?`;
  if ((m = /^(?:say|tell them|mention|explain|complain)(?: that)? (.+)$/i.exec(s))) return `${cap(m[1])}.`;
  return undefined;
}

/** The caller's n-th line (0-based): its persona's goals in order, then goodbye. */
function callerLine(persona: string, n: number): string {
  const goals = (persona.match(/[^.!?\n]+[.!?]*/g) ?? []).map(spoken).filter((x): x is string => x !== undefined);
  if (n < goals.length) return goals[n];
  return 'Thanks, that is all I needed. Goodbye.';
}

const WORD = /[\p{L}\p{N}]+/gu;
const SMALL = new Set(
  `a an and are as at be but by can could do does for from has have how i if in is it its me my of on or our should so
  than that the their them then there they this to was we what when where which who why will with would you your
  assistant caller says say said must mention mentions tell tells answer answers give gives`.split(/\s+/),
);

/** What the rubric asks for: its quoted phrases, or else its words. */
function asks(rubric: string): string[] {
  const quoted = [...rubric.matchAll(/"([^"]+)"|“([^”]+)”/g)].map((m) => (m[1] ?? m[2]).toLowerCase());
  if (quoted.length) return [...new Set(quoted)];
  return [...new Set((rubric.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 2 && !SMALL.has(w)))];
}

/** A JSON verdict: the share of what the rubric asks for that the assistant's lines contain. */
function verdict(input: string, history: readonly Message[]): string {
  // Asked again without the transcript: judge the one sent before.
  const text = input.includes('\nTRANSCRIPT:\n')
    ? input
    : ([...history].reverse().find((m) => m.role === 'user' && m.content.includes('\nTRANSCRIPT:\n'))?.content ?? input);
  const at = text.indexOf('\nTRANSCRIPT:\n');
  const rubric = at < 0 ? '' : text.slice(0, at).replace(/^RUBRIC:\n/, '');
  const said = (at < 0 ? '' : text.slice(at))
    .split('\n')
    .filter((l) => l.startsWith('assistant: '))
    .join('\n')
    .toLowerCase();
  const wanted = asks(rubric);
  if (wanted.length === 0) return JSON.stringify({ score: 0, reason: 'the rubric names nothing to look for' });
  const found = wanted.filter((w) => said.includes(w));
  const missing = wanted.filter((w) => !said.includes(w));
  const score = Math.round((found.length / wanted.length) * 100) / 100;
  const reason =
    `the assistant's replies contain ${found.length} of ${wanted.length} things the rubric names` +
    (missing.length ? `; missing: ${missing.slice(0, 5).join(', ')}` : '') +
    ' (sandbox judge: word matching, not a quality verdict)';
  return JSON.stringify({ score, reason });
}
