import { Type } from 'typebox';
import type { PowerAction } from '../provider/compute-provider.ts';
import { POWER_ACTIONS } from './power-service.ts';

const Action = Type.Unsafe<PowerAction>(Type.Union(POWER_ACTIONS.map((a) => Type.Literal(a))));

export const PowerBody = Type.Object({ action: Action }, { additionalProperties: false });

export const PowerResponse = Type.Object({
  task: Type.Object({
    id: Type.String({ description: 'The PVE task id (UPID)' }),
    action: Action,
    status: Type.Union([Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
  }),
});
