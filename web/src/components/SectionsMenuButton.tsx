import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { ActionIcon } from '@mantine/core';
import { IconDots } from './icons.tsx';

/** The button of the narrow screens' menu of every section: before the menu's code has loaded (SectionedPage) and as its target (SectionsMenu). */
export const SectionsMenuButton = forwardRef<HTMLButtonElement, { kind: string } & ComponentPropsWithoutRef<'button'>>(function SectionsMenuButton({ kind, ...props }, ref) {
  return (
    <ActionIcon ref={ref} variant="subtle" color="gray" size="lg" mt={4} aria-label={`All ${kind} sections`} aria-haspopup="menu" {...props}>
      <IconDots size={18} />
    </ActionIcon>
  );
});
