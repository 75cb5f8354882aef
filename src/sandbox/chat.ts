// The sandbox's assistant "brain": deterministic replies built only from the assistant's
// system prompt, its first message, {{variable}} values and the text of its knowledge-base
// files. Same inputs, same reply — so chat is useful offline and testable.

export interface Persona {
  name: string;
  systemPrompt: string;
  firstMessage: string;
  speaksFirst: boolean;
}

export interface KnowledgeDoc {
  name: string;
  text: string;
}

const VARIABLE = /\{\{\s*([\w.-]+)\s*\}\}/g;

/** Replaces {{name}} with variableValues.name; unknown variables are left as written. */
export function substitute(text: string, values: Record<string, unknown>): string {
  return text.replace(VARIABLE, (whole, key: string) => {
    const v = values[key];
    if (v === undefined || v === null) return whole;
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

/**
 * The variables the service fills from its clock (UTC) when a chat does not give them, as hosted
 * voice-agent services do: {{now}} (ISO 8601, to the millisecond), {{date}}, {{time}}, {{year}},
 * {{month}}, {{day}}. The only input of a reply that is not in the request or the records, so a
 * prompt that says {{now}} answers differently each time (what `switchboard test --repeat` finds).
 */
export function clockVariables(at: Date): Record<string, string> {
  const iso = at.toISOString();
  return {
    now: iso,
    date: iso.slice(0, 10),
    time: iso.slice(11, 19),
    year: iso.slice(0, 4),
    // eslint-disable-next-line no-restricted-properties -- the sandbox's chat, not a start-up path
    month: at.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' }),
    day: String(at.getUTCDate()),
  };
}

/** The {{variables}} still written out in `text`: those no value was given for, in order, once each. */
export function unsetVariables(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1]))];
}

/** The persona of an assistant record, with variables applied to its prompt and first message. */
export function personaOf(assistant: Record<string, unknown>, values: Record<string, unknown> = {}): Persona {
  const model = (assistant.model ?? {}) as { messages?: unknown };
  const messages = Array.isArray(model.messages) ? (model.messages as { role?: unknown; content?: unknown }[]) : [];
  const prompt = messages
    .filter((m) => m && m.role === 'system' && typeof m.content === 'string')
    .map((m) => m.content as string)
    .join('\n');
  const name = typeof assistant.name === 'string' && assistant.name.trim() ? assistant.name.trim() : 'your assistant';
  const first = typeof assistant.firstMessage === 'string' ? assistant.firstMessage : '';
  return {
    name,
    systemPrompt: substitute(prompt, values),
    firstMessage: substitute(first, values),
    speaksFirst: assistant.firstMessageMode === 'assistant-speaks-first',
  };
}

/** File ids the assistant uses as knowledge: knowledgeBase.fileIds and model.knowledgeBase.fileIds. */
export function knowledgeFileIds(assistant: Record<string, unknown>): string[] {
  const ids = (kb: unknown) =>
    kb && typeof kb === 'object' && Array.isArray((kb as { fileIds?: unknown }).fileIds)
      ? ((kb as { fileIds: unknown[] }).fileIds.filter((x) => typeof x === 'string') as string[])
      : [];
  const model = assistant.model as { knowledgeBase?: unknown } | undefined;
  return [...new Set([...ids(assistant.knowledgeBase), ...ids(model?.knowledgeBase)])];
}

// --- retrieval -------------------------------------------------------------------------

const STOPWORDS = new Set(
  `a an and are as at be but by can could do does did for from have has had how i if in is it its me my of on or our
  please so than that the their them then there these they this to us was we what when where which who why will with
  would you your yours about any tell know want like just also get got need into out up down over under again more
  some such only own same too very should now hi hello hey thanks thank ok okay`.split(/\s+/),
);

function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('es') && !w.endsWith('ses')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOPWORDS.has(w)).map(stem);
}

interface Passage {
  source: string; // file name, or '' for the system prompt
  heading: string;
  text: string;
  terms: Set<string>;
  headingTerms: Set<string>;
}

const cleanLine = (l: string) => l.replace(/^\s*(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/, '').trim();

/** Paragraphs (long ones, or all when `sentences`, cut into sentences), each remembering the heading above it. */
export function passagesOf(source: string, text: string, sentences = false): Passage[] {
  const out: Passage[] = [];
  let heading = '';
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((l) => l.trim());
    if (lines.length === 0) continue;
    if (/^\s*#{1,6}\s/.test(lines[0])) {
      heading = cleanLine(lines[0]);
      lines.shift();
      if (lines.length === 0) continue;
    }
    // List items and table rows stand alone; prose lines join into one paragraph.
    const listy = lines.length > 1 && lines.every((l) => /^\s*([-*+]|\d+[.)]|\|)/.test(l) || l.includes(','));
    const chunks = listy ? lines.map(cleanLine) : [lines.map(cleanLine).join(' ')];
    for (const chunk of chunks) {
      const pieces = sentences || chunk.length > 320 ? (chunk.match(/[^.!?]+[.!?]+(\s|$)|[^.!?]+$/g) ?? [chunk]) : [chunk];
      for (const p of pieces) {
        const t = p.trim();
        if (t) out.push({ source, heading, text: t, terms: new Set(terms(t)), headingTerms: new Set(terms(heading)) });
      }
    }
  }
  return out;
}

/** The best passage for the question by term overlap weighted by rarity; undefined when nothing overlaps. */
function bestPassage(question: string, passages: Passage[]): Passage | undefined {
  const q = [...new Set(terms(question))];
  if (q.length === 0 || passages.length === 0) return undefined;
  const df = new Map<string, number>();
  for (const t of q) df.set(t, passages.filter((p) => p.terms.has(t) || p.headingTerms.has(t)).length);
  let best: Passage | undefined;
  let bestScore = 0;
  for (const p of passages) {
    let score = 0;
    for (const t of q) {
      const idf = Math.log(1 + passages.length / (df.get(t) || 1));
      if (p.terms.has(t)) score += idf;
      // A section's title says what the whole section is about; a word in its text may be in passing
      // ("outside opening hours" in a section on emergencies), so the title weighs more.
      if (p.headingTerms.has(t)) score += idf * 1.5;
    }
    if (p.source === '') score *= 0.6; // prefer the knowledge base over the prompt's instructions
    if (score > bestScore + 1e-9) {
      best = p;
      bestScore = score;
    }
  }
  return best;
}

// --- replies ---------------------------------------------------------------------------

const firstSentence = (text: string) => (text.trim().match(/^[^.!?\n]+[.!?]?/)?.[0] ?? '').trim();

/** Prompt instructions in the assistant's own voice: "You are Ava…" → "I'm Ava…", "Ask about…" → "I'll ask about…". */
function speakAsSelf(sentence: string): string {
  return sentence
    .replace(/^(do not|don't)\s+/i, "I won't ")
    .replace(/^never\s+/i, 'I never ')
    .replace(/^(ask|help|tell|explain|answer|confirm|keep|be|offer|recommend|give|end|hang)\b/i, (w) => `I'll ${w.toLowerCase()}`)
    .replace(/^you are\b/i, "I'm")
    .replace(/^you're\b/i, "I'm")
    .replace(/\byour\b/gi, 'my')
    .replace(/\byou\b/gi, 'I');
}

const isGreeting = (input: string) => /^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening))\b[\s!,.?]*\S{0,12}[\s!.?]*$/i.test(input);
// A caller closing the conversation ("that's all, thanks", "bye") is answered with a goodbye, as on a call.
const isClosing = (input: string) =>
  /^\s*(great|ok(ay)?|perfect|thanks?|thank you|no)?[\s,!.]*(that'?s all|that is all|thanks?|thank you|bye|goodbye)\b[^?]{0,40}$/i.test(input);
/** The goodbye an assistant of the sandbox says when the caller closes, in chat and on calls alike. */
const GOODBYE = "You're welcome. Have a great day, goodbye!";
const asksIdentity = (input: string) => /\b(who are you|what are you|your name|what (can|do) you do|help me with)\b/i.test(input);

function introduction(p: Persona): string {
  const role = firstSentence(p.systemPrompt);
  return role && /^you('re| are)\b/i.test(role) ? speakAsSelf(role) : `I'm ${p.name}.`;
}

const SAY = String.raw`(?:say|tell (?:them|him|her|the caller|the customer|the user)|answer|reply|respond|explain)`;
const INSTRUCTED = new RegExp(String.raw`^(?:if|when(?:ever)?)\b([^,]*),\s*(?:then\s+)?${SAY}(?:\s+(?:with|that))?[:\s]+(.+)$`, 'is');

/** What a conditional instruction of the prompt tells the assistant to say, as said: quotes dropped, first letter up. */
function instructedAnswer(sentence: string): string | undefined {
  const said = INSTRUCTED.exec(sentence.trim())?.[2]?.trim();
  if (!said) return undefined;
  const bare = said.replace(/^["“'](.*)["”'][.!?]?$/s, '$1').trim();
  if (!bare) return undefined;
  const spoken = bare.charAt(0).toUpperCase() + bare.slice(1);
  return /[.!?]$/.test(spoken) ? spoken : `${spoken}.`;
}

/** Words of a rule's condition that frame it ("if the caller asks about …") rather than name its topic. */
const FRAMING = new Set(
  terms(
    'ask asks asked asking caller callers customer customers user users someone anyone people person ' +
      'question questions inquire inquires mention mentions say says talk wants',
  ),
);

/**
 * The prompt's explicit rule for `question`: "If asked about hours, say 8 to 6 on weekdays." answers
 * "8 to 6 on weekdays." to any question naming a topic of its condition. The rule naming most of the
 * question's words wins; on a tie, the first in the prompt.
 */
function ruleFor(prompt: string, question: string): string | undefined {
  const asked = new Set(terms(question));
  let best: string | undefined;
  let bestScore = 0;
  for (const { text } of passagesOf('', prompt, true)) {
    const condition = INSTRUCTED.exec(text.trim())?.[1];
    const answer = condition === undefined ? undefined : instructedAnswer(text);
    if (!answer) continue;
    const score = terms(condition!).filter((t) => !FRAMING.has(t) && asked.has(t)).length;
    if (score > bestScore) {
      best = answer;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The assistant's answer to `input`. Precedence: a greeting gets the first message; an explicit rule
 * of the prompt ("if asked about X, say Y") beats everything else, the knowledge base included, as the
 * prompt is what the user tunes; then who it is; then the best passage of the knowledge base (or else
 * of the prompt).
 */
export function composeReply(p: Persona, docs: KnowledgeDoc[], input: string): string {
  const question = input.trim();
  if (question === '') return `Sorry, I didn't catch that. ${introduction(p)} How can I help?`;
  if (isGreeting(question)) return p.firstMessage.trim() || `Hello! ${introduction(p)} How can I help?`;
  if (isClosing(question)) return GOODBYE;
  const ruled = ruleFor(p.systemPrompt, question);
  if (ruled) return ruled;
  if (asksIdentity(question)) {
    const kbNote = docs.length ? ` I can answer questions from ${docs.map((d) => d.name).join(', ')}.` : '';
    return `${introduction(p)}${kbNote}`;
  }
  const passages = [...docs.flatMap((d) => passagesOf(d.name, d.text)), ...passagesOf('', p.systemPrompt, true)];
  const hit = bestPassage(question, passages);
  if (hit && hit.source) {
    const where = hit.heading ? `${hit.source} (${hit.heading})` : hit.source;
    return `Here's what I found in ${where}: "${hit.text}"`;
  }
  if (hit) {
    // "If the caller asks about pricing, say X": the answer is X, not the instruction.
    const answer = instructedAnswer(hit.text);
    if (answer) return answer;
    const intro = introduction(p);
    const said = speakAsSelf(hit.text);
    return said === intro ? intro : `${intro} ${said}`;
  }
  const topics = docs.length ? ` You can ask me about ${docs.map((d) => d.name).join(', ')}.` : '';
  const shown = question.length > 80 ? `${question.slice(0, 77)}…` : question;
  return `${introduction(p)} I don't have anything on "${shown}" yet.${topics}`;
}

/** A deterministic cost in dollars for one exchange, by characters processed. */
export function chatCost(input: string, reply: string): number {
  return Math.round((input.length + reply.length) * 0.000_02 * 1e6) / 1e6;
}
