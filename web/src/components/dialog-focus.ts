import { useEffect, useRef } from 'react';

/*
 * Where focus goes around the console's dialogs. A dialog takes focus when it opens (Mantine's
 * focus trap) and gives it back, when it closes, to what opened it: the last element focused
 * outside any dialog or menu, so a dialog opened from another dialog (the token shown once after
 * "Create token") still returns to the page. When that element is gone (the row of a revoked
 * token), focus goes to the screen's heading instead of dropping to the page's body.
 */

const OVERLAYS = '[role="dialog"], [role="alertdialog"], [role="menu"], [data-portal]';
let lastOutside: HTMLElement | null = null;
let openDialogs = 0;

if (typeof document !== 'undefined') {
  document.addEventListener(
    'focusin',
    (e) => {
      const target = e.target as HTMLElement | null;
      if (target && target !== document.body && !target.closest(OVERLAYS)) lastOutside = target;
    },
    true,
  );
}

/** The heading of the screen (its h2, else the page's h1), made focusable: where focus lands when its opener is gone. */
export function screenHeading(): HTMLElement | null {
  const main = document.querySelector('main') ?? document.body;
  const heading = main.querySelector<HTMLElement>('h2') ?? main.querySelector<HTMLElement>('h1');
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  return heading;
}

const focusable = (el: HTMLElement | null): el is HTMLElement => !!el && el.isConnected && !el.closest('[inert], [aria-hidden="true"]');

function returnFocus(opener: HTMLElement | null, fallback: () => HTMLElement | null) {
  const target = focusable(opener) ? opener : fallback();
  target?.focus({ preventScroll: false });
  if (!target || target !== opener) return;
  // The opener may leave a moment later (the list refetches without the revoked row): follow it.
  const watch = new MutationObserver(() => {
    if (target.isConnected) return;
    stop();
    if (document.activeElement === document.body || document.activeElement === null) fallback()?.focus();
  });
  const stop = () => {
    watch.disconnect();
    document.removeEventListener('focusin', onFocusElsewhere, true);
  };
  const onFocusElsewhere = (e: FocusEvent) => {
    if (e.target !== target) stop();
  };
  watch.observe(document.body, { childList: true, subtree: true });
  document.addEventListener('focusin', onFocusElsewhere, true);
}

/**
 * Gives focus back when the dialog closes (use with Mantine's `returnFocus={false}`). `fallback`
 * says where it goes when the opener is gone; by default the screen's heading.
 */
export function useDialogFocus(opened: boolean, fallback: () => HTMLElement | null = screenHeading) {
  const fallbackRef = useRef(fallback);
  useEffect(() => {
    fallbackRef.current = fallback;
  });
  useEffect(() => {
    if (!opened) return;
    const opener = lastOutside;
    openDialogs += 1;
    return () => {
      openDialogs -= 1;
      // After Mantine has unmounted the dialog; if another dialog opened meanwhile, it has the focus.
      setTimeout(() => {
        if (openDialogs === 0) returnFocus(opener, fallbackRef.current);
      }, 0);
    };
  }, [opened]);
}
