import type { Request, Response } from 'express';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** One page of a list, with what the pagination headers need. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly page: number,
    readonly perPage: number,
    /** Total count for offset pagination; undefined for keyset pages. */
    readonly total?: number,
    /** Keyset pagination: the cursor of the next page, if there is one. */
    readonly nextCursor?: string | null,
  ) {}

  map<U>(fn: (item: T) => U): Page<U> {
    return new Page(this.items.map(fn), this.page, this.perPage, this.total, this.nextCursor);
  }
}

export interface PageRequest {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

/** page defaults to 1; per_page to 20 and, as on the platform, is capped at 100. */
export function pageRequest(query: { page?: number; per_page?: number }): PageRequest {
  const page = query.page ?? 1;
  const perPage = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

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
