import { Type } from 'typebox';
import { ServiceStatusWord } from '../../services/index.ts';

export const PortalSlugParams = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });

export const PortalServiceParams = Type.Object({
  org_slug: Type.String({ minLength: 1, maxLength: 64 }),
  id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
});

/** The customer's services by `page`/`per_page` 50/200; `status`; how fresh the answer must be. */
export const PortalServicesQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1, default: 1 }),
  per_page: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  status: Type.Optional(ServiceStatusWord),
  consistency: Type.Enum(['strong', 'eventual'], {
    default: 'strong',
    description:
      '`strong` reads the database; `eventual` may answer what this process read for the same query ' +
      'up to a few seconds ago (an order just placed may be missing)',
  }),
});
