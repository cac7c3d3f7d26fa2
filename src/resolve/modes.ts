/** What to do with a wrapped link: isolate its real target, ask first, or isolate the wrapper. Imports nothing: the options page loads it. */
export const UNWRAP_MODES = ['unwrap', 'ask', 'keep'] as const;
export type UnwrapMode = (typeof UNWRAP_MODES)[number];
