import { z } from 'zod';
import { defineRoute } from '../http/route.ts';
import { resetFeedToken } from '../services/access/feed-tokens.ts';

export const feedTokenRoutes = [
  defineRoute({
    method: 'post',
    path: '/user/feed_token',
    area: 'feed-tokens',
    summary: 'Reset the caller’s feed token (for RSS and calendar feeds); the previous one stops working and the plaintext is returned once',
    permission: 'read_self',
    response: z.object({ token: z.string(), created_at: z.string() }),
    handler: async (ctx) => {
      const { plaintext, created_at } = await resetFeedToken(ctx.db, ctx.actor.user!.id);
      return { token: plaintext, created_at };
    },
  }),
];
