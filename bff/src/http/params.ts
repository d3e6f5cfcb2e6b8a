import { z } from 'zod';

/**
 * Path parameters. A parameter that names a record answers a malformed value the way it
 * answers a record that does not exist — `404 <What> Not Found` — so "digits up to 2³¹−1, else
 * 404" is written here once; any other parameter that fails its schema is a 400 naming it.
 */
const wording = z.registry<{ notFound: string }>();

/** The 404 wording a parameter schema carries, if it names a record. */
export const notFoundWording = (schema: z.ZodType): string | undefined => wording.get(schema)?.notFound;

const MAX_ID = 2_147_483_647;

/**
 * A record's numeric id in the path, e.g. `recordId('Hook')`: a missing one is "404 Hook Not
 * Found". Without a name, the platform's generic "404 Not found" (what it answers for a record
 * it finds with ActiveRecord's `find`, such as a reaction or an issue link).
 */
export const recordId = (what = '') =>
  z
    .string()
    .regex(/^\d+$/)
    .transform(Number)
    .pipe(z.number().max(MAX_ID))
    .register(wording, { notFound: what });

/** A record named by a free-form key in the path (a SCIM extern UID): any non-empty text. */
export const recordKey = (what: string) => z.string().min(1).register(wording, { notFound: what });

/** `self` (the calling token) or a record's numeric id. */
export const selfOrId = (what: string) => z.union([z.literal('self'), recordId(what)]).register(wording, { notFound: what });
