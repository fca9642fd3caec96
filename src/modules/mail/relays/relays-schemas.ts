import { Type } from 'typebox';

/** The path of every relay route: /client/smtp-relay/{service_id}/... */
export const RelayParams = Type.Object({ service_id: Type.Integer({ minimum: 1 }) });
