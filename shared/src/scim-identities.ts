import { z } from './errors.ts';

/** SCIM identity (spec part 1, "SCIM identity"). */
export const scimIdentity = z.object({
  extern_uid: z.string(),
  user_id: z.number().int(),
  active: z.boolean(),
});
export type ScimIdentity = z.infer<typeof scimIdentity>;

export const scimIdentityUpdateBody = z.object({ extern_uid: z.string().trim().min(1).max(255) });

/** The group's SCIM token, for the identity provider; the plaintext only when created. */
export const scimToken = z.object({ created_at: z.string() });
export const scimTokenWithToken = scimToken.extend({ token: z.string(), scim_api_url: z.string() });

/** SCIM 2.0 (RFC 7643) User as identity providers send it; only the attributes used are named. */
export const scimUserInput = z.object({
  schemas: z.array(z.string()).optional(),
  externalId: z.string().trim().min(1).max(255),
  userName: z.string().trim().min(1).max(255),
  active: z.boolean().optional(),
  displayName: z.string().max(255).optional(),
  name: z
    .object({ formatted: z.string().max(255).optional(), givenName: z.string().max(255).optional(), familyName: z.string().max(255).optional() })
    .optional(),
  emails: z
    .array(z.object({ value: z.email().max(255), primary: z.boolean().optional(), type: z.string().optional() }))
    .min(1),
});
export type ScimUserInput = z.infer<typeof scimUserInput>;

/** PATCH (RFC 7644 §3.5.2): the operations identity providers send to (de)activate a user. */
export const scimPatchBody = z.object({
  schemas: z.array(z.string()).optional(),
  Operations: z
    .array(
      z.object({
        op: z.string().transform((v) => v.toLowerCase()).pipe(z.enum(['add', 'replace', 'remove'])),
        path: z.string().optional(),
        value: z.unknown().optional(),
      }),
    )
    .min(1),
});
