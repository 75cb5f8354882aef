// API keys are shown only masked, and scrubbed from any text that might be printed or logged.

/**
 * `sk-live-4f9a…c0de` → `sk-…c0de`: a short recognisable prefix (up to the first '-', else two
 * characters) and the last four. Keys under 12 characters show only the last four, under 8 nothing,
 * so a short key is never mostly revealed. The ellipsis hides the length too.
 */
export function maskKey(key: string): string {
  if (key.length < 8) return '••••';
  const last = key.slice(-4);
  if (key.length < 12) return `…${last}`;
  const dash = key.indexOf('-');
  const prefix = dash > 0 && dash <= 4 ? key.slice(0, dash + 1) : key.slice(0, 2);
  return `${prefix}…${last}`;
}

/** `text` with every occurrence of `key` replaced by its masked form. */
export function redactKey(text: string, key: string | undefined): string {
  if (!key) return text;
  return text.split(key).join(maskKey(key));
}
