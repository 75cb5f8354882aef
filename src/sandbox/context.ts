// What every route needs: the records, where files live, the sandbox's own URL and its knobs.
import type { SandboxStore } from './db.js';

export interface SandboxContext {
  store: SandboxStore;
  dataDir: string;
  /** The URL the sandbox listens on (file urls are built from it at read time). */
  baseUrl(): string;
  maxUploadBytes: number;
  /** Milliseconds per simulated second of a call (1000 = real time; tests speed it up). */
  callPace: number;
  /** Rings made without a DID so far: the next one goes to the next linked number. */
  rings: number;
}
