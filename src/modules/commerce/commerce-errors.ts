/**
 * The Commerce module answers no error of its own: its routes only read lists, and what they
 * refuse (no key or token, a scope the key lacks, an unknown organization) is refused by the
 * Commerce gate of the keys module and the kernel, with their errors.
 */
export {};
