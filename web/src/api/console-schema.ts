import type { InstanceOverview } from '../../../shared/src/instance.ts';
import type { Abilities, SessionInfo, SignInBody } from '../../../shared/src/session.ts';

/**
 * The console's own endpoints (/api/console/…), in the shape openapi-typescript gives the
 * platform API. They are not in the route table of /api/v4, so they are written here from the
 * shared schemas; declaring them as routes would let `npm run openapi:types` generate this too.
 */
type Json<T> = { content: { 'application/json': T } };
type Params<Path> = { query?: never; header?: never; path: Path; cookie?: never };
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };
type AbilitiesPath = { parameters: Params<{ id: number | string }>; get: { parameters: Params<{ id: number | string }>; responses: { 200: Json<Abilities> } } };

export type ConsolePaths = {
  '/session': {
    parameters: NoParams;
    get: { parameters: NoParams; responses: { 200: Json<SessionInfo> } };
    post: { parameters: NoParams; requestBody: Json<SignInBody>; responses: { 201: Json<SessionInfo> } };
    delete: { parameters: NoParams; responses: { 204: { content?: never } } };
  };
  '/groups/{id}/abilities': AbilitiesPath;
  '/projects/{id}/abilities': AbilitiesPath;
  '/instance': { parameters: NoParams; get: { parameters: NoParams; responses: { 200: Json<InstanceOverview> } } };
};
