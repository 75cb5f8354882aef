// The OpenAPI 3.1 document served at GET /openapi.json (filled in below).
export function openApiDocument(baseUrl: string): Record<string, unknown> {
  return { openapi: '3.1.0', info: { title: 'Voice Agent Service (Switchboard sandbox)', version: '1' }, servers: [{ url: baseUrl }], paths: {} };
}
