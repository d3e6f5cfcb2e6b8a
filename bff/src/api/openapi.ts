import { z } from 'zod';
import { errorStatuses, MOUNTS, successStatus, type Mount, type RouteSpec } from '../http/route.ts';

const ERROR_TEXT: Record<number, string> = {
  400: 'A required attribute is missing or an attribute failed validation',
  401: 'Not authenticated or invalid credential',
  403: 'Not allowed for this user',
  404: 'Not found, or not visible to the caller',
  405: 'Not possible for this kind of caller',
  409: 'A conflicting resource exists',
  413: 'Request entity too large',
  415: 'The body is of a type this route does not take',
  422: 'Entity could not be processed',
  429: 'Rate limit exceeded',
};

const errorBody = {
  type: 'object',
  properties: {
    message: {
      oneOf: [
        { type: 'string', description: 'e.g. "404 Group Not Found", or "name is missing"' },
        { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'field → error messages' },
      ],
    },
  },
  required: ['message'],
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** OpenAPI 3.1 generated from the route declarations and the shared schemas. */
export function openApiDocument(routes: RouteSpec[], serverUrl: string, mount: Mount = 'api') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const pathParams = [...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: r.params?.[m[1]] ? jsonSchema(r.params[m[1]], 'input') : { type: 'string' },
      description: m[1] === 'id' && (r.load === 'group' || r.load === 'project') ? 'Numeric ID or URL-encoded full path' : undefined,
    }));
    const queryParams: unknown[] = [];
    if (r.query) {
      const s = jsonSchema(r.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(s.properties ?? {})) {
        queryParams.push({ name, in: 'query', required: s.required?.includes(name) ?? false, schema });
      }
    }
    const status = successStatus(r);
    const responses: Record<string, unknown> = {
      [status]: r.response
        ? { description: 'Success', content: { 'application/json': { schema: jsonSchema(r.response, 'output') } } }
        : r.file
          ? { description: 'Success', content: Object.fromEntries(r.file.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) }
          : { description: status === 204 ? 'No content' : 'Success' },
    };
    for (const code of errorStatuses(r)) {
      responses[code] = { description: ERROR_TEXT[code] ?? 'Error', content: { 'application/json': { schema: errorBody } } };
    }
    const body = r.body ? jsonSchema(r.body, 'input') : undefined;
    // The multipart form takes a file where JSON takes its own value: a copy of the schema each.
    const multipart = body && r.upload ? { ...body, properties: { ...(body.properties as object), [r.upload]: { type: 'string', format: 'binary' } } } : body && r.multipart ? body : undefined;
    paths[path] ??= {};
    paths[path][r.method] = {
      operationId: `${r.method}${r.path.replace(/[/:]+([a-z_]+)/gi, (_m, w: string) => w[0].toUpperCase() + w.slice(1))}`,
      summary: r.summary,
      tags: [r.area],
      security: r.auth === 'optional' ? [{}, { privateToken: [] }, { bearer: [] }] : [{ privateToken: [] }, { bearer: [] }, { session: [] }],
      parameters: [...pathParams, ...queryParams],
      ...(body && r.method !== 'get'
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: body },
                ...(r.upload ? {} : { 'application/x-www-form-urlencoded': { schema: body } }),
                ...(multipart ? { 'multipart/form-data': { schema: multipart } } : {}),
              },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse API',
      version: 'v4',
      description: 'The platform REST API served by Gatehouse. Authenticate with the PRIVATE-TOKEN header or Authorization: Bearer.',
    },
    servers: [{ url: `${serverUrl}${MOUNTS[mount]}` }],
    components: {
      securitySchemes: {
        privateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' },
        bearer: { type: 'http', scheme: 'bearer' },
        session: { type: 'apiKey', in: 'cookie', name: 'gatehouse_session' },
      },
    },
    paths,
  };
}
