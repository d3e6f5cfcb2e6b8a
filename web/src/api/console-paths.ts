import type { SessionInfo, SignInBody } from '../../../shared/src/session.ts';
import type { paths as DeclaredConsolePaths } from './console-schema.d.ts';

/**
 * The console's own endpoints (/api/console/…): those declared in the route table (abilities,
 * the instance overview) are generated into console-schema.d.ts by `npm run openapi:types`;
 * sign-in and sign-out, which make and end the session itself (bff/src/api/session.ts), are
 * written here from the shared schemas in the same shape.
 */
type Json<T> = { content: { 'application/json': T } };
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };

type SessionPaths = {
  '/session': {
    parameters: NoParams;
    get: { parameters: NoParams; responses: { 200: Json<SessionInfo> } };
    post: { parameters: NoParams; requestBody: Json<SignInBody>; responses: { 201: Json<SessionInfo> } };
    delete: { parameters: NoParams; responses: { 204: { content?: never } } };
  };
};

export type ConsolePaths = DeclaredConsolePaths & SessionPaths;
