import { useRef, type ComponentType } from 'react';
import { Menu } from '@mantine/core';
import { Link } from 'react-router';
import { SectionsMenuButton } from './SectionsMenuButton.tsx';

/**
 * Every section of a page in a menu, for narrow screens where the tabs scroll sideways. Loaded
 * the first time it is opened (SectionedPage, on-demand.tsx), and opened as it arrives.
 */
export default function SectionsMenu({
  tabs,
  isCurrent,
  kind,
  name,
  hrefOf,
}: {
  tabs: { slug: string; label: string; icon: ComponentType<{ size?: number }> }[];
  isCurrent: (slug: string) => boolean;
  kind: string;
  name: string;
  hrefOf: (slug: string) => string;
}) {
  // Opened as it mounts, the menu has no earlier focus to return to: it is given back to its button.
  const target = useRef<HTMLButtonElement>(null);
  return (
    <Menu position="bottom-end" shadow="md" width={240} defaultOpened onClose={() => target.current?.focus()}>
      <Menu.Target>
        <SectionsMenuButton kind={kind} ref={target} />
      </Menu.Target>
      <Menu.Dropdown aria-label={name}>
        {tabs.map((s) => (
          <Menu.Item key={s.slug} component={Link} to={hrefOf(s.slug)} leftSection={<s.icon size={16} />} aria-current={isCurrent(s.slug) ? 'page' : undefined}>
            {s.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
