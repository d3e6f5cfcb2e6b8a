import type { Request, Response } from 'express';
import type { Page } from '../db/pagination.ts';

/**
 * The URLs of other pages of this request: its own URL with `page`/`per_page` set (as
 * URLSearchParams.set does: in place of the first, the others dropped, or appended) and
 * credential parameters removed. The request URL is parsed and its pairs encoded once for the
 * up to four links of a page.
 */
function pageUrls(baseUrl: string, req: Request): (params: Record<string, string | number>) => string {
  const url = new URL(req.originalUrl, baseUrl);
  const pairs = [...url.searchParams].filter(([k]) => k !== 'private_token' && k !== 'access_token').map(([k, v]) => ({ key: k, text: new URLSearchParams([[k, v]]).toString() }));
  const hash = url.hash;
  url.search = '';
  url.hash = '';
  const path = url.href;
  return (params) => {
    const set = new Map(Object.entries(params).map(([k, v]) => [k, new URLSearchParams([[k, String(v)]]).toString()]));
    const out: string[] = [];
    for (const { key, text } of pairs) {
      const replaced = set.get(key);
      if (replaced === undefined) out.push(text);
      else if (replaced !== '') {
        out.push(replaced);
        set.set(key, '');
      }
    }
    for (const text of set.values()) if (text !== '') out.push(text);
    return `${path}?${out.join('&')}${hash}`;
  };
}

/**
 * Sets X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page and Link. An offset
 * page of a list too long to count (db/pagination.ts, MAX_COUNT) has them all but X-Total,
 * X-Total-Pages and the "last" link, as on the platform.
 */
export function setPaginationHeaders(req: Request, res: Response, baseUrl: string, page: Page<unknown>): void {
  const links: string[] = [];
  const pageUrl = pageUrls(baseUrl, req);
  res.set('X-Per-Page', String(page.perPage));
  if (page.total === undefined && page.hasNext === undefined) {
    if (page.nextCursor) links.push(`<${pageUrl({ cursor: page.nextCursor, per_page: page.perPage })}>; rel="next"`);
    if (links.length) res.set('Link', links.join(', '));
    return;
  }
  const totalPages = page.total === undefined ? undefined : Math.max(1, Math.ceil(page.total / page.perPage));
  const next = (totalPages === undefined ? page.hasNext : page.page < totalPages) ? page.page + 1 : null;
  const prev = page.page > 1 ? page.page - 1 : null;
  if (totalPages !== undefined) res.set({ 'X-Total': String(page.total), 'X-Total-Pages': String(totalPages) });
  res.set({
    'X-Page': String(page.page),
    'X-Next-Page': next ? String(next) : '',
    'X-Prev-Page': prev ? String(prev) : '',
  });
  if (prev) links.push(`<${pageUrl({ page: totalPages === undefined ? prev : Math.min(prev, totalPages), per_page: page.perPage })}>; rel="prev"`);
  if (next) links.push(`<${pageUrl({ page: next, per_page: page.perPage })}>; rel="next"`);
  links.push(`<${pageUrl({ page: 1, per_page: page.perPage })}>; rel="first"`);
  if (totalPages !== undefined) links.push(`<${pageUrl({ page: totalPages, per_page: page.perPage })}>; rel="last"`);
  res.set('Link', links.join(', '));
}
