import { Type } from 'typebox';

/** Answers shared by the identity module's routes. */
export const MessageView = Type.Object({ message: Type.String() });
