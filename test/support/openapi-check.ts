// Checks an exchange with the sandbox against the OpenAPI document it serves, with Ajv (JSON
// Schema 2020-12, the dialect of OpenAPI 3.1) and ajv-formats: the request's path, query and JSON
// body, and the response's status, content type and body — errors included. A small adapter:
// the document is added to Ajv whole, and each check compiles a $ref into it, so every schema
// is the document's own.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under tsx its default export may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

export interface Exchange {
  method: string;
  /** The path and query string, as sent. */
  url: string;
  requestContentType?: string;
  requestBody?: unknown;
  status: number;
  responseContentType?: string | null;
  /** The parsed JSON answer (undefined if it was not JSON). */
  responseBody?: unknown;
  responseText: string;
}

type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Parameter = { name: string; in: string; required?: boolean; schema: unknown };

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const DOC_ID = 'https://sandbox.invalid/openapi.json';

export class OpenApiCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly routes: { template: string; pattern: RegExp; params: string[] }[];

  constructor(private readonly doc: any) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: DOC_ID });
    this.routes = Object.keys(doc.paths).map((template) => {
      const params: string[] = [];
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
        params.push(name);
        return '([^/]+)';
      });
      return { template, pattern: new RegExp(`^${source}$`), params };
    });
  }

  private validator(pointer: string): ValidateFunction {
    let v = this.compiled.get(pointer);
    if (!v) {
      v = this.ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
      this.compiled.set(pointer, v);
    }
    return v;
  }

  private errorsOf(pointer: string, value: unknown): string | undefined {
    const v = this.validator(pointer);
    if (v(value)) return undefined;
    return this.ajv.errorsText(v.errors, { dataVar: 'body' });
  }

  /** What is wrong with the request by the document, or undefined if it is valid. */
  requestProblem(x: Exchange, route: { template: string; params: string[] }, values: string[], op: Operation): string | undefined {
    const base = `/paths/${escapePointer(route.template)}/${x.method.toLowerCase()}`;
    const url = new URL(x.url, 'http://x');
    const params = op.parameters ?? [];
    for (const [i, p] of params.entries()) {
      const given = p.in === 'path' ? values[route.params.indexOf(p.name)] : p.in === 'query' ? url.searchParams.getAll(p.name) : undefined;
      if (p.in === 'path') {
        let value: string;
        try {
          value = decodeURIComponent(given as string);
        } catch {
          return `path ${p.name} is not valid percent-encoded UTF-8`;
        }
        const problem = this.errorsOf(`${base}/parameters/${i}/schema`, value);
        if (problem) return `path ${p.name}: ${problem}`;
      }
      if (p.in === 'query') {
        const list = given as string[];
        if (list.length === 0) {
          if (p.required) return `query ${p.name} is required`;
          continue;
        }
        if (list.length > 1) return `query ${p.name} given ${list.length} times`;
        const s = p.schema as { type?: string };
        const raw = list[0];
        const value = s.type === 'integer' || s.type === 'number' ? (/^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw) : raw;
        const problem = this.errorsOf(`${base}/parameters/${i}/schema`, value);
        if (problem) return `query ${p.name}: ${problem}`;
      }
    }
    const known = new Set(params.filter((p) => p.in === 'query').map((p) => p.name));
    for (const name of url.searchParams.keys()) if (!known.has(name)) return `unknown query parameter ${name}`;
    const body = op.requestBody;
    if (body) {
      const type = (x.requestContentType ?? '').split(';')[0].trim().toLowerCase();
      if (!(type in body.content)) return `request content type ${type || '(none)'} is not one of ${Object.keys(body.content).join(', ')}`;
      if (type === 'application/json') {
        const problem = this.errorsOf(`${base}/requestBody/content/application~1json/schema`, x.requestBody);
        if (problem) return `request body: ${problem}`;
      }
    } else if (x.requestBody !== undefined && x.requestBody !== '') {
      return 'the operation takes no body';
    }
    return undefined;
  }

  /**
   * Every mismatch between the exchange and the document: an undocumented status, a body not
   * matching the documented schema, or a success for a request the document calls invalid.
   */
  problems(x: Exchange): string[] {
    const path = new URL(x.url, 'http://x').pathname;
    const where = `${x.method} ${x.url.slice(0, 120)} → ${x.status}`;
    let route: (typeof this.routes)[number] | undefined;
    let values: string[] = [];
    for (const r of this.routes) {
      const m = r.pattern.exec(path);
      if (m) {
        route = r;
        values = m.slice(1);
        break;
      }
    }
    const method = x.method.toLowerCase() === 'head' ? 'get' : x.method.toLowerCase();
    const op: Operation | undefined = route && this.doc.paths[route.template][method];
    const out: string[] = [];
    if (!route || !op) {
      // No such operation: a 404 in the error shape (401 first without the key, which every path
      // but the document needs; 414 for an over-long path segment, 400 for a malformed URL; 405
      // for a method a documented path does not serve).
      if (![400, 401, 404, 414].includes(x.status) && !(route && x.status === 405)) out.push(`${where}: not a documented operation, yet ${x.status}`);
      const problem = this.errorsOf('/components/schemas/Error', x.responseBody);
      if (problem) out.push(`${where}: error body: ${problem}`);
      return out;
    }
    const base = `/paths/${escapePointer(route.template)}/${method}`;
    const response = op.responses[String(x.status)] ?? op.responses.default;
    if (!response) {
      out.push(
        `${where}: status ${x.status} is not documented for ${method.toUpperCase()} ${route.template} (documented: ${Object.keys(op.responses).join(', ')}); ` +
          `body ${x.responseText.slice(0, 200)}`,
      );
      return out;
    }
    const requestProblem = this.requestProblem(x, route, values, op);
    if (requestProblem && x.status < 400) out.push(`${where}: the document calls this request invalid (${requestProblem}) yet it succeeded`);
    if (x.method.toUpperCase() === 'HEAD') return out;
    const content = response.content ?? {};
    const types = Object.keys(content);
    if (types.length === 0) return out;
    const type = (x.responseContentType ?? '').split(';')[0].trim().toLowerCase();
    const declared = types.find((t) => t === type || (t.endsWith('/*') && type.startsWith(t.slice(0, -1))) || t === '*/*');
    if (!declared) {
      out.push(`${where}: content type ${type || '(none)'} is not documented (${types.join(', ')})`);
      return out;
    }
    if (declared === 'application/json') {
      const status = op.responses[String(x.status)] ? String(x.status) : 'default';
      const problem = this.errorsOf(`${base}/responses/${status}/content/application~1json/schema`, x.responseBody);
      if (problem) out.push(`${where}: response body: ${problem}; body ${x.responseText.slice(0, 300)}`);
    }
    return out;
  }
}
