import type { Request, Response } from 'express';
import type { Page } from '../db/pagination.ts';

/**
 * The URLs of other pages of this request: its own URL with `page`/`per_page` set (as
 * URLSearchParams.set does: in place, or appended) and credential parameters removed. The
 * request URL is parsed once for the up to four links of a page.
 */
function pageUrls(baseUrl: string, req: Request): (params: Record<string, string | number>) => string {
  const url = new URL(req.originalUrl, baseUrl);
  for (const secret of ['private_token', 'access_token']) url.searchParams.delete(secret);
  // A copy: clearing the URL's search below empties its own searchParams.
  const query = new URLSearchParams(url.searchParams);
  const hash = url.hash;
  url.search = '';
  url.hash = '';
  const path = url.href;
  return (params) => {
    const search = new URLSearchParams(query);
    for (const [k, v] of Object.entries(params)) search.set(k, String(v));
    return `${path}?${search.toString()}${hash}`;
  };
}

/** Sets X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page and Link. */
export function setPaginationHeaders(req: Request, res: Response, baseUrl: string, page: Page<unknown>): void {
  const links: string[] = [];
  const pageUrl = pageUrls(baseUrl, req);
  res.set('X-Per-Page', String(page.perPage));
  if (page.total === undefined) {
    if (page.nextCursor) links.push(`<${pageUrl({ cursor: page.nextCursor, per_page: page.perPage })}>; rel="next"`);
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
  if (prev) links.push(`<${pageUrl({ page: Math.min(prev, totalPages), per_page: page.perPage })}>; rel="prev"`);
  if (next) links.push(`<${pageUrl({ page: next, per_page: page.perPage })}>; rel="next"`);
  links.push(`<${pageUrl({ page: 1, per_page: page.perPage })}>; rel="first"`);
  links.push(`<${pageUrl({ page: totalPages, per_page: page.perPage })}>; rel="last"`);
  res.set('Link', links.join(', '));
}
