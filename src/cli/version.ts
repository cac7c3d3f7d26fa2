/** The package's version, set at build time (tsup, vitest) from package.json. */
declare const __ISOLINK_VERSION__: string | undefined;

export const VERSION: string = typeof __ISOLINK_VERSION__ === 'string' ? __ISOLINK_VERSION__ : '0.0.0-dev';
