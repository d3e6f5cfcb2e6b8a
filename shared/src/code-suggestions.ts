import { z } from 'zod';
import { boolParam } from './params.ts';

/** The largest part of a file above or below the cursor the platform takes. */
export const MAX_CONTENT_SIZE = 400_000;
/** The largest user instruction (the platform's body limit when forwarding). */
export const MAX_BODY_SIZE = 600_000;

export const codeCompletionContextItem = z.object({
  type: z.enum(['file', 'snippet']),
  name: z.string().min(1).max(255),
  content: z.string().min(1).max(MAX_BODY_SIZE),
});

/** `POST /code_suggestions/completions`: the prompt parts, forwarded to the AI gateway. */
export const codeCompletionBody = z.object({
  current_file: z.object({
    file_name: z.string().max(255),
    content_above_cursor: z.string().max(MAX_CONTENT_SIZE),
    content_below_cursor: z.string().max(MAX_CONTENT_SIZE).optional(),
  }),
  intent: z.enum(['completion', 'generation']).optional(),
  stream: boolParam().optional(),
  project_path: z.string().max(2048).optional(),
  generation_type: z.enum(['comment', 'empty_function', 'small_file']).optional(),
  context: z.array(codeCompletionContextItem).min(1).max(100).optional(),
  user_instruction: z.string().max(MAX_BODY_SIZE).optional(),
});
export type CodeCompletionBody = z.infer<typeof codeCompletionBody>;

/** The code completion response (as the gateway answers it, passed on). */
export const codeCompletionResponse = z.object({
  id: z.string(),
  model: z.object({ engine: z.string(), name: z.string() }),
  object: z.string(),
  created: z.number().int(),
  choices: z.array(z.object({ text: z.string(), index: z.number().int(), finish_reason: z.string() })),
});

export const codeSuggestionsEnabledBody = z.object({
  project_path: z.string().max(2048),
});

/** The headers an IDE sends on to the gateway when it calls it directly. */
export const serviceHeaders = z.object({
  'X-Service-Instance-Id': z.string(),
  'X-Service-Realm': z.string(),
  'X-Service-Global-User-Id': z.string(),
  'X-Service-Host-Name': z.string(),
});

export const directAccessDetails = z.object({
  base_url: z.string(),
  token: z.string(),
  expires_at: z.number().int(),
  headers: serviceHeaders,
});
export type DirectAccessDetails = z.infer<typeof directAccessDetails>;

export const connectionDetails = z.object({
  instance_id: z.string(),
  instance_version: z.string(),
  realm: z.string(),
  global_user_id: z.string(),
  host_name: z.string(),
  feature_enablement_type: z.string(),
  saas_ai_pro_namespace_ids: z.string(),
});
export type ConnectionDetails = z.infer<typeof connectionDetails>;

/** One public key of the instance's JSON Web Key Set (`/oauth/discovery/keys`). */
export const jsonWebKey = z.object({
  kid: z.string(),
  kty: z.literal('RSA'),
  n: z.string(),
  e: z.string(),
  use: z.literal('sig'),
  alg: z.literal('RS256'),
});
export const jsonWebKeySet = z.object({ keys: z.array(jsonWebKey) });
