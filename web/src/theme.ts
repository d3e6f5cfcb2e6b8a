import { createTheme, darken, DEFAULT_THEME, luminance, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

const brand: MantineColorsTuple = [
  '#edf2ff',
  '#dbe4ff',
  '#bac8ff',
  '#91a7ff',
  '#748ffc',
  '#5c7cfa',
  '#4c6ef5',
  '#4263eb',
  '#3b5bdb',
  '#364fc7',
];

const PRIMARY_SHADE = 7;
/** WCAG 2.1 AA for normal text, with a little margin for anti-aliasing. */
const AA = 4.6;

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

/** `color` drawn at `alpha` over `background` (both #rrggbb): what a "light" tint looks like on the page. */
const over = (color: string, alpha: number, background: string) => {
  const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const [c, b] = [rgb(color), rgb(background)];
  return `#${c.map((v, i) => Math.round(v * alpha + b[i]! * (1 - alpha)).toString(16).padStart(2, '0')).join('')}`;
};

/** The first of `shades` that reads on every background, else the darkest one darkened until it does. */
function readable(shades: readonly string[], backgrounds: string[]): string {
  const ok = (c: string) => backgrounds.every((bg) => contrast(c, bg) >= AA);
  const found = shades.find(ok);
  if (found) return found;
  let c = shades[shades.length - 1]!;
  for (let step = 0.05; !ok(c) && step < 1; step += 0.05) c = darken(shades[shades.length - 1]!, step);
  return c;
}

const colors = { ...DEFAULT_THEME.colors, brand };
const WHITE = '#ffffff';
// The page's grey and the tables' header grey: the darkest backgrounds text sits on.
const PAGE = DEFAULT_THEME.colors.gray[0];
const HEADER = DEFAULT_THEME.colors.gray[1];

/**
 * Mantine draws coloured text, light badges, outlines and filled buttons from one shade per
 * colour, which for teal, green, orange, red and grey is below 4.5:1 on white and on their own
 * tints. Here every colour gets the shade that reads (computed, so a new colour is covered too),
 * and dimmed text a grey that reads on the page's grey: contrast is fixed once, not per screen.
 */
const readableColors: CSSVariablesResolver = () => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': readable([DEFAULT_THEME.colors.gray[6], DEFAULT_THEME.colors.gray[7]], [WHITE, PAGE, HEADER]),
    '--mantine-color-placeholder': readable([DEFAULT_THEME.colors.gray[6], DEFAULT_THEME.colors.gray[7]], [WHITE]),
  };
  for (const [name, shades] of Object.entries(colors)) {
    const tint = over(shades[PRIMARY_SHADE]!, 0.12, PAGE);
    const text = readable(shades.slice(PRIMARY_SHADE), [WHITE, PAGE, HEADER, tint]);
    const filled = readable(shades.slice(PRIMARY_SHADE), [WHITE]);
    Object.assign(light, {
      [`--mantine-color-${name}-text`]: text,
      [`--mantine-color-${name}-light-color`]: text,
      [`--mantine-color-${name}-outline`]: text,
      [`--mantine-color-${name}-filled`]: filled,
      [`--mantine-color-${name}-filled-hover`]: darken(filled, 0.1),
    });
  }
  light['--mantine-color-error'] = light['--mantine-color-red-text']!;
  light['--mantine-color-anchor'] = light['--mantine-color-brand-text']!;
  return { variables: {}, light, dark: {} };
};

export const cssVariablesResolver = readableColors;

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: PRIMARY_SHADE,
  colors: { brand },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  // Someone who asked their system for less motion gets dialogs, menus and toasts without their
  // transitions (the e2e suite's browser asks for it too: a click never lands on a moving dialog).
  respectReducedMotion: true,
  components: {
    Paper: { defaultProps: { shadow: 'none' } },
    Badge: { defaultProps: { radius: 'sm' } },
    // A link inside text is told apart by more than its colour.
    Anchor: { defaultProps: { underline: 'always' } },
    // A close button says what it closes for screen readers (Mantine draws only an ×).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // Mantine's focus placeholder is a focusable box inside role=menu, where only items may be.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // WAI-ARIA's manual activation: arrows move between tabs, Enter or Space opens one. Each of
    // our tabs loads a screen or a list; arrowing across a row must not load those on the way.
    Tabs: { defaultProps: { activateTabWithKeyboard: false } },
    // After a day is picked (or Escape), focus goes back to the date field, inside its dialog.
    DatePickerInput: { defaultProps: { popoverProps: { returnFocus: true } } },
    // A toast's message under its title is Mantine's grey-6 (3.3:1 on white): the readable dimmed instead.
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } }, styles: { description: { color: 'var(--mantine-color-dimmed)' } } },
  },
});
