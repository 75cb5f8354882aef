// A key is checked with one request before it is saved (`switchboard login`, the console's new
// profile): the numbers' list, read once with no retry, by a client made for it and closed after.
import { ApiError } from './errors.js';

/** Resolves when the service at `baseUrl` takes `apiKey`; throws the request's error otherwise (ApiError 401/403: refused). */
export async function checkKey(baseUrl: string, apiKey: string, debug?: (line: string) => void): Promise<void> {
  const { createClient } = await import('./client.js');
  const api = createClient({ baseUrl, apiKey, debug, retries: 0 });
  try {
    await api.listPhoneNumbers();
  } finally {
    await api.close();
  }
}

/** The service refused the key itself (not the request for another reason). */
export function keyRefused(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.status === 401 || err.status === 403);
}
