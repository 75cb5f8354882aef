// One error shape for every answer that is not a success: { statusCode, error, message }.
// Routes throw HttpError; the handlers below turn framework errors (malformed JSON, wrong
// content type, body too large, multipart limits) into the same shape, so no input yields a 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// node:http's status texts from its CommonJS module: an ESM import of node:http makes Node build
// its ESM facade, which reads every export, the lazy ones too, and so loads Node's own bundled
// undici on the console's thread. The lint config forbids the import.
const { STATUS_CODES } = process.getBuiltinModule('node:http');

interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

export function sendError(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  return reply.code(statusCode).type('application/json; charset=utf-8').send(errorBody(statusCode, message));
}

// Framework error codes mapped to the status and message a user of the API should see.
function describeFrameworkError(err: FastifyError, maxUploadBytes: number): { status: number; message: string } | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: 'unsupported Content-Type; send application/json (or multipart/form-data for POST /files)' };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 415, message: 'POST /files needs Content-Type multipart/form-data with a part named "file"' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: 'the body is empty; send a JSON object' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: 'Content-Length does not match the body' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: 'the JSON body is too large (limit 1 MB)' };
    case 'FST_REQ_FILE_TOO_LARGE':
      return { status: 413, message: `the file is larger than the upload limit of ${maxUploadBytes} bytes` };
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return { status: 413, message: 'too many multipart parts; send one part named "file"' };
    case 'FST_PROTO_VIOLATION':
      return { status: 400, message: 'the multipart body has a forbidden field name' };
    default:
      break;
  }
  // JSON.parse failures surface as SyntaxError with statusCode 400.
  if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { status: 400, message: `malformed JSON body: ${err.message}` };
  }
  // busboy reports a broken multipart body as a plain Error.
  if (/multipart|boundary|Unexpected end of form|Malformed part header/i.test(err.message)) {
    return { status: 400, message: `malformed multipart body: ${err.message}` };
  }
  const status = err.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, message: err.message };
  return undefined;
}

/** For Fastify's `frameworkErrors` option: routing errors (bad percent-encoding, over-long ids) in our shape. */
export function frameworkError(err: FastifyError, _request: unknown, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') sendError(reply, 414, 'an id in the path is too long');
  else sendError(reply, 400, `the URL is malformed: ${err.message}`);
}

/** How long a refused request's remaining body is read (and dropped) after the answer, at most. */
const LINGER_MS = 10_000;

/**
 * For an answer given before the body was read (413): `Connection: close`, then the rest of the
 * body is read and dropped until the client closes. Closing a socket with unread bytes resets
 * the connection, and a client still sending (Node's fetch) then loses the answer
 * (ECONNRESET); leaving them unread stalls it instead.
 */
function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('connection', 'close');
  const socket = request.raw.socket;
  if (!socket || socket.destroyed) return;
  request.raw.unpipe();
  request.raw.resume();
  socket.destroySoon = function lingeringClose() {
    this.end();
    this.resume();
    const timer = setTimeout(() => this.destroy(), LINGER_MS).unref();
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
  };
}

type Paths = Record<string, Record<string, unknown>>;

/**
 * The methods each documented path serves (HEAD with GET), for the 405's Allow header: a path
 * template's `{name}` matches one non-empty segment, as the router's `:name` does.
 */
export function allowedMethods(paths: Paths): (path: string) => string[] | undefined {
  const routes = Object.entries(paths).map(([template, ops]) => {
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    const methods = Object.keys(ops).map((m) => m.toUpperCase());
    if (methods.includes('GET')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD');
    return { pattern: new RegExp(`^${source}$`), methods };
  });
  return (path) => routes.find((r) => r.pattern.test(path))?.methods;
}

export function installErrorHandling(
  app: FastifyInstance,
  maxUploadBytes: number,
  logHint: string,
  methodsOf: (path: string) => string[] | undefined = () => undefined,
): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      if (err.statusCode === 413) closeAfterAnswer(request, reply);
      return sendError(reply, err.statusCode, err.message);
    }
    const known = describeFrameworkError(err, maxUploadBytes);
    if (known?.status === 413) closeAfterAnswer(request, reply);
    if (known) return sendError(reply, known.status, known.message);
    request.log.error({ err }, 'unexpected error');
    return sendError(reply, 500, `the sandbox failed to handle this request; ${logHint}`);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const methods = methodsOf(path);
    if (methods) {
      return sendError(reply.header('allow', methods.join(', ')), 405, `${path} does not take ${request.method}; it takes ${methods.join(', ')}`);
    }
    return sendError(reply, 404, `no route ${request.method} ${path}; see GET /openapi.json`);
  });
}
