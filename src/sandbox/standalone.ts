// `switchboard sandbox`: runs the sandbox in the foreground until SIGINT/SIGTERM.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from './auth.js';
import { startSandbox } from './server.js';

export interface StandaloneOptions {
  port: number;
  host: string;
  apiKey?: string;
  dataDir?: string;
  maxUploadBytes?: number;
  logger?: boolean;
  cors?: string;
  /** Where errors are logged; stderr when not given (a 500 names the one that is used). */
  logFile?: string;
  /** Seconds between simulated inbound calls (demo traffic); off when not given. */
  ringEverySeconds?: number;
}

/** ${XDG_DATA_HOME:-~/.local/share}/switchboard/sandbox */
export function defaultSandboxDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(base, 'switchboard', 'sandbox');
}

const mask = (key: string) => (key.length <= 8 ? '…' : `${key.slice(0, 3)}…${key.slice(-4)}`);

/** Starts the sandbox, prints where it is, and resolves with exit code 0 once a signal stopped it. */
export async function runStandaloneSandbox(opts: StandaloneOptions, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const generated = !opts.apiKey;
  const apiKey = opts.apiKey || generateApiKey();
  const dataDir = opts.dataDir ?? defaultSandboxDataDir();
  const sb = await startSandbox({
    dataDir,
    apiKey,
    host: opts.host,
    port: opts.port,
    maxUploadBytes: opts.maxUploadBytes,
    logger: opts.logger,
    cors: opts.cors,
    errorLog: opts.logFile ?? '-',
    ringEverySeconds: opts.ringEverySeconds,
  });
  out.write(
    [
      `Switchboard sandbox listening on ${sb.url}`,
      `  API key:  ${generated ? apiKey : `${mask(apiKey)} (as given)`}`,
      `  data dir: ${dataDir}`,
      `  API docs: ${sb.url}/openapi.json`,
      `  log:      ${opts.logFile ? `${opts.logFile} (errors)` : 'errors on stderr (--log-file PATH to keep them in a file)'}`,
      ...(opts.ringEverySeconds ? [`  calls:    an inbound call every ${opts.ringEverySeconds}s to the linked numbers, in turn`] : []),
      ...(opts.cors ? [`  CORS:     browser calls allowed from ${opts.cors === '*' ? 'any origin' : opts.cors}`] : []),
      `  try:      curl -H 'x-api-key: ${generated ? apiKey : '<your key>'}' ${sb.url}/assistants`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      out.write(`\n${signal}: stopping the sandbox…\n`);
      sb.close().then(
        () => resolve(0),
        (err: unknown) => {
          out.write(`could not stop cleanly: ${err instanceof Error ? err.message : String(err)}\n`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
