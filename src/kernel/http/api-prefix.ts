/** Every route of the platform lives under this prefix; no header or parameter selects a version. */
export const API_PREFIX = '/api/v1';
