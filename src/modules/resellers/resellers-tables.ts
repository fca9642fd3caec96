/**
 * The resellers module's tables: none yet. Its routes act through the services registry and the
 * organizations' and identity modules' interfaces, which hold the rows.
 */
export type ResellersTables = Record<never, never>;
