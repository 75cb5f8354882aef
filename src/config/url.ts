// What a service URL says about the key's safety, and URLs made safe to echo. A leaf (no
// imports): the console's first frame and every error message use it.

/** Whether `host` (a URL's hostname) is this machine: localhost, 127.0.0.0/8 or ::1. */
function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1';
}

/** Whether requests to `url` carry the key unencrypted past this machine (http:// to another host). */
export function sendsKeyInClear(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && !isLoopbackHost(u.hostname);
  } catch {
    return false;
  }
}

/**
 * `text` with the user information of every URL in it masked (`http://user:pw@host` →
 * `http://…@host`), whether or not the URL parses: a malformed one is echoed back in messages too.
 */
export function maskUserInfo(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#\s"'@]*(?:@[^/?#\s"'@]*)*@/gi, '$1…@');
}
