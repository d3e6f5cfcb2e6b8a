import { Anchor, Text, type AnchorProps } from '@mantine/core';
import { httpUrl } from '../../../shared/src/links.ts';

/**
 * A link a user or a report supplied (a license's page, a scanner's identifier, a CI job):
 * opened in a new tab without a referrer, and a link only when it is an http(s) URL; anything
 * else (`javascript:`, `data:`…) shows as plain text, never as an href.
 */
export function ExternalLink({ href, children, ...props }: AnchorProps & { href: string | null | undefined; children: React.ReactNode; 'aria-label'?: string }) {
  const url = httpUrl(href);
  if (!url) {
    return (
      <Text span size={props.size ?? 'sm'}>
        {children}
      </Text>
    );
  }
  return (
    <Anchor href={url} target="_blank" rel="noreferrer noopener" {...props}>
      {children}
    </Anchor>
  );
}
