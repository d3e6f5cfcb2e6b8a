// The roles as plain values, apart from the schemas in roles.ts: a screen that only names a
// role (the groups list) then loads no zod.

export const ACCESS_LEVELS = {
  no_access: 0,
  minimal_access: 5,
  guest: 10,
  planner: 15,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
} as const;

export const ROLE_NAMES: Record<number, string> = {
  10: 'Guest',
  15: 'Planner',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
};

/** Levels a membership may hold. */
export const memberAccessLevels = [10, 15, 20, 30, 40, 50] as const;
