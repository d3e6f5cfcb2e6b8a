/** The platform's numbers in an archive for what this product keeps as words, both ways. */

export const VISIBILITY_LEVELS: Record<string, number> = { private: 0, internal: 10, public: 20 };
/** Gitlab::Access project creation levels: NO_ONE 0, MAINTAINER 1, DEVELOPER 2, ADMINISTRATOR 3, OWNER 4. */
export const PROJECT_CREATION_LEVELS: Record<string, number> = { noone: 0, maintainer: 1, developer: 2, administrator: 3, owner: 4 };
/** Gitlab::Access subgroup creation levels: OWNER 0, MAINTAINER 1. */
export const SUBGROUP_CREATION_LEVELS: Record<string, number> = { owner: 0, maintainer: 1 };

/** The word of `value` in `levels`, or undefined for a number it does not know. */
export function levelName(levels: Record<string, number>, value: unknown): string | undefined {
  return Object.entries(levels).find(([, n]) => n === value)?.[0];
}
