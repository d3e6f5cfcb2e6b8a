import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react';

/** What the stand-in trigger of an on-demand part calls: fetch its code early, or ask for it. */
export interface OnDemandHandlers {
  onPointerEnter: () => void;
  onFocus: () => void;
  onClick: () => void;
}

/**
 * A part whose code loads when it is first used, such as a menu: until then the page draws only
 * its trigger (`trigger`, the same button the part draws as its own), and the code is fetched as
 * the pointer or the focus comes to it. The click that asks for it renders the loaded part, which
 * opens at once (a menu with `defaultOpened`); from then on it is the part itself. Popovers bring
 * floating-ui, a tenth of a first load, to pages that may never open one.
 */
export function onDemand<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  const Loaded = lazy(load);
  const prefetch = () => void load().catch(() => undefined);
  return function OnDemand({ trigger, ...props }: P & { trigger: (handlers: OnDemandHandlers) => ReactElement }) {
    const [wanted, setWanted] = useState(false);
    const button = trigger({ onPointerEnter: prefetch, onFocus: prefetch, onClick: () => setWanted(true) });
    return wanted ? (
      <Suspense fallback={button}>
        <Loaded {...(props as unknown as P)} />
      </Suspense>
    ) : (
      button
    );
  };
}
