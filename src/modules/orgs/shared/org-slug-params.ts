import { Type } from 'typebox';

/** Path parameters every organization route shares. */
export const OrgSlugParams = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });
