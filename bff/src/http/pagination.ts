import type { Request, Response } from 'express';
import type { Page } from '../db/pagination.ts';

function pageUrl(baseUrl: string, req: Request, params: Record<string, string | number>): string {
  const url = new URL(req.originalUrl, baseUrl);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  for (const secret of ['private_token', 'access_token']) url.searchParams.delete(secret);
  return url.toString();
}

/** Sets X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page and Link. */
export function setPaginationHeaders(req: Request, res: Response, baseUrl: string, page: Page<unknown>): void {
  const links: string[] = [];
  res.set('X-Per-Page', String(page.perPage));
  if (page.total === undefined) {
    if (page.nextCursor) links.push(`<${pageUrl(baseUrl, req, { cursor: page.nextCursor, per_page: page.perPage })}>; rel="next"`);
    if (links.length) res.set('Link', links.join(', '));
    return;
  }
  const totalPages = Math.max(1, Math.ceil(page.total / page.perPage));
  const next = page.page < totalPages ? page.page + 1 : null;
  const prev = page.page > 1 ? page.page - 1 : null;
  res.set({
    'X-Total': String(page.total),
    'X-Total-Pages': String(totalPages),
    'X-Page': String(page.page),
    'X-Next-Page': next ? String(next) : '',
    'X-Prev-Page': prev ? String(prev) : '',
  });
  if (prev) links.push(`<${pageUrl(baseUrl, req, { page: Math.min(prev, totalPages), per_page: page.perPage })}>; rel="prev"`);
  if (next) links.push(`<${pageUrl(baseUrl, req, { page: next, per_page: page.perPage })}>; rel="next"`);
  links.push(`<${pageUrl(baseUrl, req, { page: 1, per_page: page.perPage })}>; rel="first"`);
  links.push(`<${pageUrl(baseUrl, req, { page: totalPages, per_page: page.perPage })}>; rel="last"`);
  res.set('Link', links.join(', '));
}
