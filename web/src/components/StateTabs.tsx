import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * Active / Inactive tabs over a token list: the list is the current tab's panel, and the other
 * tab, which leads to another URL, claims no panel (aria-controls would point at nothing).
 */
export function StateTabs({ state, onChange, children }: { state: 'active' | 'inactive'; onChange: (state: 'active' | 'inactive') => void; children: ReactNode }) {
  return (
    <Tabs value={state} onChange={(v) => onChange(v === 'inactive' ? 'inactive' : 'active')} variant="outline">
      <Tabs.List aria-label="Token state">
        {(['active', 'inactive'] as const).map((s) => (
          <Tabs.Tab key={s} value={s} {...(s !== state && { 'aria-controls': undefined })}>
            {s === 'active' ? 'Active' : 'Inactive'}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value={state} pt="md">
        {children}
      </Tabs.Panel>
    </Tabs>
  );
}
