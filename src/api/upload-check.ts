// What can be uploaded, checked before anything is sent: the one check `files upload` and the
// console's upload (the path field and the store's action) both make, so they agree on every
// path: a missing file, a directory, a fifo or device (no length to send, and reading a fifo
// blocks), a 0-byte file, a file the kernel reports as 0 bytes though it reads as text (/proc,
// /sys: its length would be wrong on the wire), and a file over the limit when the limit is known.
import { accessSync, constants, statSync, type Stats } from 'node:fs';

/** The sandbox's own limit (the sandbox reads it from here); a hosted service's is unknown until it answers 413. */
export const SANDBOX_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/** The upload limit where it is known: the embedded sandbox's. */
export function knownUploadLimit(kind: 'sandbox' | 'remote'): number | undefined {
  return kind === 'sandbox' ? SANDBOX_MAX_UPLOAD_BYTES : undefined;
}

function megabytes(n: number): string {
  return `${+(n / 1048576).toFixed(1)} MB`;
}

/** Why `path` can't be uploaded (a sentence naming it), or null when it can. `shown` is the path as the user typed it. */
export function uploadProblem(path: string, maxBytes?: number, shown: string = path): string | null {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EACCES' ? `cannot read ${shown}: permission denied` : `cannot read ${shown}: no such file`;
  }
  if (st.isDirectory()) return `${shown} is a directory; give a file`;
  if (st.isFIFO()) return `${shown} is a pipe (fifo), not a file: its length is unknown until it is read; save it to a file first`;
  if (!st.isFile()) return `${shown} is not a regular file (a device or socket); give a file`;
  try {
    accessSync(path, constants.R_OK);
  } catch {
    return `cannot read ${shown}: permission denied`;
  }
  if (st.size === 0) {
    return /^\/(proc|sys)\//.test(path)
      ? `${shown} is a kernel file whose size reads as 0 bytes; copy it to a regular file first (cat ${shown} > copy.txt)`
      : `${shown} is empty (0 bytes); there is nothing to upload`;
  }
  if (maxBytes !== undefined && st.size > maxBytes) return `${shown} is ${megabytes(st.size)}; the limit is ${megabytes(maxBytes)}`;
  return null;
}
