// POST/GET/DELETE /files, GET /files/{id}/content. Uploads stream to disk (files.ts);
// text extraction runs right after the answer, so a new file reads `processing`, then `done`.
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import type { FileRow } from '../db.js';
import { HttpError, badRequest, notFound } from '../errors.js';
import { contentPath, deleteFileContents, extractText, saveUpload, textPath, type PendingUpload } from '../files.js';
import { checkQuery, intParam } from '../validate.js';

/** File status: 'processing' until text extraction finishes, then 'done' (or 'failed'). */
export const FILE_STATUSES = ['processing', 'done', 'failed'] as const;
// The reference's defaults (docs.callhq.ai list files: page 1, limit 10); the maximum is the sandbox's own.
export const DEFAULT_FILE_PAGE_LIMIT = 10;
export const MAX_FILE_PAGE_LIMIT = 100;

export function fileRecord(ctx: Pick<SandboxContext, 'baseUrl'>, f: FileRow) {
  const url = `${ctx.baseUrl()}/files/${encodeURIComponent(f.id)}/content`;
  return {
    id: f.id,
    externalId: f.id,
    name: f.name,
    integrationId: 'sandbox-local-disk',
    url,
    bytes: f.bytes,
    object: 'file',
    purpose: 'knowledge-base',
    mimetype: f.mimetype,
    bucket: 'sandbox',
    path: `files/${f.id}`,
    status: f.status,
    parsedTextUrl: f.parsedTextBytes === null ? null : `${url}?format=text`,
    // The spec types parsedTextBytes as a string.
    parsedTextBytes: f.parsedTextBytes === null ? null : String(f.parsedTextBytes),
    organizationId: 'org-sandbox',
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    organization: { id: 'sandbox', name: 'Switchboard Sandbox' },
    integration: { provider: 'local-disk' },
  };
}

function getFileOr404(ctx: SandboxContext, id: string): FileRow {
  const f = ctx.store.getFile(id);
  if (!f) throw notFound(`no file with id ${id}`);
  return f;
}

/**
 * Saves the part named `file`; other parts are drained and ignored. The file is recorded only
 * once the whole body was read within the limits, so a refused upload leaves no record, no bytes.
 */
async function receiveUpload(ctx: SandboxContext, request: FastifyRequest): Promise<FileRow> {
  if (!request.isMultipart()) {
    throw new HttpError(415, 'POST /files needs Content-Type multipart/form-data with a part named "file"');
  }
  let saved: PendingUpload | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || saved) {
        part.file.resume();
        continue;
      }
      saved = await saveUpload(ctx, part.file, part.filename);
    }
  } catch (err) {
    await saved?.discard();
    throw err;
  }
  if (!saved) throw badRequest('file is required: send a multipart part named "file"');
  return saved.keep();
}

export function fileRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/files', async (request, reply) => {
    const file = await receiveUpload(ctx, request);
    setImmediate(() => void extractText(ctx, file));
    return reply.code(201).send({ message: 'File uploaded successfully', file: fileRecord(ctx, file) });
  });

  app.get('/files', async (request) => {
    const q = checkQuery(request.query, ['page', 'limit']);
    const page = intParam(q, 'page', 1, 1_000_000, 1);
    const limit = intParam(q, 'limit', 1, MAX_FILE_PAGE_LIMIT, DEFAULT_FILE_PAGE_LIMIT);
    const total = ctx.store.countFiles();
    return {
      files: ctx.store.pageFiles(limit, (page - 1) * limit).map((f) => fileRecord(ctx, f)),
      pagination: { total, page, limit, totalPages: Math.ceil(total / limit) },
    };
  });

  app.get<{ Params: { fileId: string } }>('/files/:fileId', async (request) => ({ file: fileRecord(ctx, getFileOr404(ctx, request.params.fileId)) }));

  app.get<{ Params: { fileId: string } }>('/files/:fileId/content', async (request, reply) => {
    const q = checkQuery(request.query, ['format']);
    const f = getFileOr404(ctx, request.params.fileId);
    if (q.format !== undefined && q.format !== 'text') throw badRequest('format must be "text" (or left out for the original bytes)');
    if (q.format === 'text') {
      if (f.parsedTextBytes === null) throw notFound(`file ${f.id} has no extracted text (status ${f.status})`);
      return reply.type('text/plain; charset=utf-8').send(createReadStream(textPath(ctx.dataDir, f.id)));
    }
    const type = f.mimetype.startsWith('text/') || f.mimetype === 'application/json' ? `${f.mimetype}; charset=utf-8` : f.mimetype;
    return reply
      .type(type)
      .header('content-length', f.bytes)
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(f.name)}`)
      .send(createReadStream(contentPath(ctx.dataDir, f.id)));
  });

  app.delete<{ Params: { fileId: string } }>('/files/:fileId', async (request) => {
    const f = getFileOr404(ctx, request.params.fileId);
    ctx.store.deleteFile(f.id, new Date().toISOString());
    await deleteFileContents(ctx.dataDir, f.id);
    return { message: 'File deleted successfully' };
  });
}
