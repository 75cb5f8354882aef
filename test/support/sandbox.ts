// A real sandbox for tests: fresh temp data dir (removed on close), random loopback port,
// generated key, seeded unless `seed: false`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey, startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export type { RunningSandbox, SandboxOptions };

export async function startTestSandbox(opts: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'switchboard-sandbox-'));
  const ownsDir = opts.dataDir === undefined;
  try {
    const sb = await startSandbox({ apiKey: generateApiKey(), port: 0, host: '127.0.0.1', ...opts, dataDir });
    return {
      ...sb,
      close: async () => {
        await sb.close();
        if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
