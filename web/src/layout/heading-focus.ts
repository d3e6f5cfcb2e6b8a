import { useEffect } from 'react';

/** How long a lazily loaded screen has to draw its heading before focus settles on the page's. */
const WAIT_MS = 3000;

/**
 * The heading focus moves to after a navigation: the chosen section's own heading on a page of
 * sections (its screen loads after the page's), else the page's title.
 */
function headingOf(main: HTMLElement, section: boolean): HTMLElement | null {
  return main.querySelector<HTMLElement>(section ? '[role="tabpanel"] :is(h2, h3), .gh-tabs-panel :is(h2, h3)' : 'h1');
}

/**
 * After sign-in and after every navigation (a new path; a changed filter is not one), focus
 * moves to the new screen's heading, so that keyboard and screen-reader users start where the
 * screen starts, not at the top of the frame. Left alone while focus is on a row of tabs (the
 * user is moving along them), and once the user has put focus elsewhere while the screen loads.
 * The heading is focusable by script only (tabindex -1).
 */
export function useHeadingFocus(main: React.RefObject<HTMLElement | null>, pathname: string): void {
  useEffect(() => {
    if (document.activeElement?.closest('[role="tablist"]')) return;
    // What had focus when the navigation happened: once the user puts it somewhere else (a
    // field, a dialog) while the screen loads, it stays there.
    const from = document.activeElement;
    const section = pathname.includes('/-/');
    const started = performance.now();
    let frame = 0;
    const attempt = () => {
      const now = document.activeElement;
      if (now !== from && now !== document.body && now !== null) return;
      const root = main.current;
      const late = performance.now() - started > WAIT_MS;
      const heading = root && (headingOf(root, section) ?? (late ? headingOf(root, false) : null));
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
        return;
      }
      if (!late) frame = requestAnimationFrame(attempt);
    };
    frame = requestAnimationFrame(attempt);
    return () => cancelAnimationFrame(frame);
  }, [main, pathname]);
}
