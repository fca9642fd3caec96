/**
 * The locations module answers no error of its own: its routes are public reads, and their only
 * failures (a bad query, too many requests) are the kernel's.
 */
export {};
