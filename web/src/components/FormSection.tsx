import type { ReactNode } from 'react';
import { Grid, Paper, Stack, Text, Title } from '@mantine/core';

/**
 * One titled part of a form (a card with a heading, a line saying what it holds, and its
 * fields). `aside` puts the heading beside the fields on wide screens, as long settings pages
 * do; the heading level follows the page's outline.
 */
export function FormSection({
  id,
  title,
  description,
  children,
  layout = 'stacked',
  order = 3,
}: {
  id: string;
  title: string;
  description: ReactNode;
  children: ReactNode;
  layout?: 'stacked' | 'aside';
  order?: 2 | 3;
}) {
  const heading = (
    <>
      <Title order={order} size="h4" id={id}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mt={layout === 'aside' ? 4 : 2} mb={layout === 'aside' ? undefined : 'md'}>
        {description}
      </Text>
    </>
  );
  const fields = <Stack gap="lg">{children}</Stack>;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id} id={`section-${id}`}>
      {layout === 'aside' ? (
        <Grid gutter={{ base: 'sm', md: 'xl' }}>
          <Grid.Col span={{ base: 12, md: 4 }}>{heading}</Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>{fields}</Grid.Col>
        </Grid>
      ) : (
        <>
          {heading}
          {fields}
        </>
      )}
    </Paper>
  );
}
