import { Type } from 'typebox';

export const UnsubscribeParams = Type.Object({ token: Type.String({ maxLength: 1000 }) });

/** A small page for GET, an empty body for POST. */
export const UnsubscribeResponse = Type.String();
