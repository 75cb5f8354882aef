// STAND-IN until branch `envelopes` is merged (its src/api/envelope.ts replaces this file whole):
// the agreed API, so `doctor` can be written and tested against it meanwhile.

/** A single record, bare or under one of the envelopes the hosted service may use. */
export function unwrapRecord(body: unknown, name: string): { record: Record<string, unknown>; envelope: string } | undefined {
  if (!isRecord(body)) return undefined;
  const hasMessage = typeof body.message === 'string';
  for (const key of [name, 'data']) {
    if (isRecord(body[key])) return { record: body[key], envelope: hasMessage ? `{message,${key}}` : `{${key}}` };
  }
  return typeof body.id === 'string' ? { record: body, envelope: 'bare' } : undefined;
}

/** A list, bare or under one of the envelopes the hosted service may use. */
export function unwrapList(body: unknown, plural: string): { list: unknown[]; envelope: string } | undefined {
  if (Array.isArray(body)) return { list: body, envelope: 'bare' };
  if (!isRecord(body)) return undefined;
  for (const key of [plural, 'data', 'items', 'results']) {
    const list = body[key];
    if (Array.isArray(list)) return { list, envelope: `{${key}}` };
  }
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
