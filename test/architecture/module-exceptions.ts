/**
 * Modules that so far hold mechanism only, without tables, services or routes, so without the fixed
 * files past index.ts; and what they hold. An entry whose module has its fixed files fails.
 */
export const MODULES_WITHOUT_FIXED_FILES: Readonly<Record<string, string>> = {};
