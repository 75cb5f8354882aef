// The sandbox: a local Voice Agent Service over real HTTP. The console embeds it (random
// loopback port, generated key); `switchboard sandbox` runs it standalone.
import { closeSync, openSync } from 'node:fs';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import multipart from '@fastify/multipart';
import { installAuth } from './auth.js';
import { installCors } from './cors.js';
import { installGzip } from './gzip.js';
import { SandboxStore } from './db.js';
import { allowedMethods, frameworkError, installErrorHandling } from './errors.js';
import { ignoreEmptyDeleteBodies, limitJsonDepth, refuseEmptyPathIds, refuseUndocumentedQuery } from './validate.js';
import type { SandboxContext } from './context.js';
import { openApiDocument } from './openapi.js';
import { openSeeded } from './seed.js';
import { resumeExtraction } from './files.js';
import { assistantRoutes } from './routes/assistants.js';
import { callRoutes } from './routes/calls.js';
import { chatRoutes } from './routes/chats.js';
import { fileRoutes } from './routes/files.js';
import { phoneNumberRoutes } from './routes/phone-numbers.js';
import { adminRoutes } from './routes/admin.js';
import { ringNextLinked } from './ring.js';
import { newSecret, registerSandbox } from './registry.js';
import { SANDBOX_MAX_UPLOAD_BYTES } from '../api/upload-check.js';

export { generateApiKey } from './auth.js';
export { runStandaloneSandbox, defaultSandboxDataDir } from './standalone.js';

/** The clients check uploads against the same figure before sending (src/api/upload-check.ts). */
const DEFAULT_MAX_UPLOAD_BYTES = SANDBOX_MAX_UPLOAD_BYTES;

export interface SandboxOptions {
  dataDir: string;
  apiKey: string;
  host?: string;
  /** 0 (the default) picks a random free port. */
  port?: number;
  maxUploadBytes?: number;
  /** Seed demo data into a new data dir (default true); never touches an existing one. */
  seed?: boolean;
  /** Log requests (method, url, status; never headers) to stdout. Off by default. */
  logger?: boolean;
  /** Milliseconds per simulated second of a call timeline (default 1000; tests use less). */
  callPace?: number;
  /** A browser origin (or "*") allowed to call the sandbox; off by default. */
  cors?: string;
  /**
   * Where unexpected errors (a 500) are logged with their stack: a file path, or '-' for stderr.
   * Without one (the embedded sandbox) the 500 says there is no log and how to get one.
   */
  errorLog?: string;
  /** Seconds between simulated inbound calls to the linked numbers, in turn (demo traffic); off by default. */
  ringEverySeconds?: number;
  /** Register in the data dir, so commands use this sandbox instead of starting their own (src/sandbox/registry.ts). */
  register?: boolean;
  /** Called once no connection has been open for this many ms (a command's sandbox then stops itself). */
  idle?: { ms: number; then: () => void };
}

export interface RunningSandbox {
  url: string;
  apiKey: string;
  dataDir: string;
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions): Promise<RunningSandbox> {
  if (!opts.apiKey) throw new Error('the sandbox needs an API key');
  const maxUploadBytes = opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const { db } = openSeeded(opts.dataDir, opts.seed !== false);
  const store = new SandboxStore(db);
  let url = '';
  const ctx: SandboxContext = {
    store,
    dataDir: opts.dataDir,
    baseUrl: () => url,
    maxUploadBytes,
    callPace: opts.callPace ?? 1000,
    rings: 0,
  };
  let app: FastifyInstance | undefined;
  const registered = opts.register ? { token: newSecret(), instance: newSecret() } : undefined;
  let unregister = () => undefined as void;
  try {
    resumeExtraction(ctx); // before listening, so no upload of this run can be mistaken for debris
    // The logger opens its file later, where a failure could not be caught: fail here instead.
    if (opts.errorLog && opts.errorLog !== '-') closeSync(openSync(opts.errorLog, 'a', 0o600));
    app = buildApp(ctx, opts, registered);
    if (opts.idle) watchIdle(app, opts.idle);
    const host = opts.host ?? '127.0.0.1';
    await app.listen({ host, port: opts.port ?? 0 });
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : opts.port;
    url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    if (registered) unregister = registerSandbox(opts.dataDir, { url, ...registered });
  } catch (err) {
    await app?.close().catch(() => undefined);
    db.close();
    throw explainListenError(err, opts);
  }
  const server = app;
  const ringing = opts.ringEverySeconds ? ringAtRate(ctx, opts.ringEverySeconds) : undefined;
  let closing: Promise<void> | undefined;
  return {
    url,
    apiKey: opts.apiKey,
    dataDir: opts.dataDir,
    close: () =>
      // Unregistered first, so no command picks a sandbox that is stopping.
      (closing ??= (unregister(), clearInterval(ringing), server.close()).then(() => {
        db.close();
      })),
  };
}

/**
 * Calls `idle.then` once no connection has been open for `idle.ms`. A client that uses the sandbox
 * keeps a connection open while it runs (a command waiting on a person, `calls watch` between polls),
 * and the system closes it when that process ends, however it ends.
 */
function watchIdle(app: FastifyInstance, idle: { ms: number; then: () => void }): void {
  let open = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => open === 0 && idle.then(), idle.ms);
  };
  app.server.on('connection', (socket: Socket) => {
    open++;
    clearTimeout(timer);
    socket.once('close', () => {
      if (--open === 0) arm();
    });
  });
  app.addHook('onReady', async () => arm());
  app.addHook('onClose', async () => clearTimeout(timer));
}

function buildApp(ctx: SandboxContext, opts: SandboxOptions, registered: { token: string; instance: string } | undefined): FastifyInstance {
  const app = Fastify({
    // Fastify's default request serializer logs method and url only, never headers (the key).
    logger: loggerOptions(opts),
    bodyLimit: 1024 * 1024,
    // Close idle keep-alive sockets promptly so close() does not wait on clients.
    forceCloseConnections: true,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 1000 },
    frameworkErrors: frameworkError,
  });
  limitJsonDepth(app);
  ignoreEmptyDeleteBodies(app);
  const documented = openApiDocument('').paths as Record<string, Record<string, unknown>>;
  installErrorHandling(app, ctx.maxUploadBytes, logHint(opts), allowedMethods(documented));
  if (opts.cors) installCors(app, opts.cors); // before the key check: preflights carry no key
  installAuth(app, opts.apiKey, registered);
  installGzip(app);
  refuseUndocumentedQuery(app, documented as Parameters<typeof refuseUndocumentedQuery>[1]);
  refuseEmptyPathIds(app);
  app.register(multipart, {
    throwFileSizeLimit: true,
    // One byte over the limit reaches saveUpload, which counts bytes and answers 413.
    limits: { fileSize: ctx.maxUploadBytes + 1, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12, headerPairs: 100 },
  });
  app.get('/openapi.json', async () => openApiDocument(ctx.baseUrl()));
  app.register(async (scope) => {
    callRoutes(scope, ctx);
    chatRoutes(scope, ctx);
    assistantRoutes(scope, ctx);
    phoneNumberRoutes(scope, ctx);
    fileRoutes(scope, ctx);
    adminRoutes(scope, ctx);
  });
  return app;
}

/** Demo traffic: an inbound call every `seconds` to the linked numbers in turn; a ring that cannot be made (none linked) is skipped. */
function ringAtRate(ctx: SandboxContext, seconds: number): ReturnType<typeof setInterval> {
  const timer = setInterval(() => {
    try {
      ringNextLinked(ctx);
    } catch {
      // Nothing linked yet: the next tick tries again, once a number is linked.
    }
  }, seconds * 1000);
  timer.unref();
  return timer;
}

/** Request lines (logger) go to stdout; with an error log, errors go to its file or stderr. */
function loggerOptions(opts: SandboxOptions): FastifyServerOptions['logger'] {
  if (opts.errorLog && opts.errorLog !== '-') return { level: opts.logger ? 'info' : 'error', file: opts.errorLog };
  if (opts.errorLog === '-') return { level: opts.logger ? 'info' : 'error', stream: process.stderr };
  return opts.logger ? { level: 'info' } : false;
}

/** What a 500 tells the client about where the details are: only a log that exists. */
function logHint(opts: SandboxOptions): string {
  if (opts.errorLog && opts.errorLog !== '-') return `the details are in its log, ${opts.errorLog}`;
  if (opts.errorLog === '-' || opts.logger) return "the details are in its log, on the sandbox's stderr";
  return 'this sandbox keeps no log; run `switchboard sandbox --log-file PATH` to keep one';
}

function explainListenError(err: unknown, opts: SandboxOptions): Error {
  const code = (err as NodeJS.ErrnoException)?.code;
  // The code stays on it: the embedded sandbox's restart tries another port on EADDRINUSE (child.ts).
  if (code === 'EADDRINUSE') return Object.assign(new Error(`port ${opts.port} is already in use; pick another with --port`), { code });
  if (code === 'EACCES') return new Error(`not allowed to listen on port ${opts.port}; pick a port above 1024 with --port`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new Error(`cannot listen on host ${opts.host}; use 127.0.0.1 or an address of this machine`);
  return err instanceof Error ? err : new Error(String(err));
}
