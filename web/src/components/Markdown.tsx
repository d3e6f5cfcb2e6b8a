import { Typography } from '@mantine/core';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { httpUrl } from '../../../shared/src/links.ts';

/**
 * What a user wrote (an issue's or merge request's description, a comment), rendered as the
 * platform's Markdown: CommonMark with GitHub's tables, task lists, strikethrough and autolinks.
 * Safe by construction: raw HTML is dropped (never parsed into the page), and a link or image
 * keeps its address only when it is http(s) or a path on this site, so `javascript:` and `data:`
 * addresses render as plain text. Links to other sites open in a new tab without a referrer.
 */
const components: Components = {
  a: ({ href, children }) => {
    const local = href?.startsWith('/') && !href.startsWith('//') ? href : null;
    const url = local ?? httpUrl(href);
    if (!url) return <span>{children}</span>;
    return local ? <a href={local}>{children}</a> : <a href={url} target="_blank" rel="noreferrer noopener">{children}</a>;
  },
  img: ({ src, alt }) => {
    const url = typeof src === 'string' ? httpUrl(src) : null;
    return url ? <img src={url} alt={alt ?? ''} loading="lazy" style={{ maxWidth: '100%' }} /> : <span>{alt}</span>;
  },
};

export function Markdown({ children }: { children: string | null | undefined }) {
  if (!children?.trim()) return null;
  return (
    <Typography>
      <ReactMarkdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
        {children}
      </ReactMarkdown>
    </Typography>
  );
}
