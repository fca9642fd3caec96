import { Type, type Static, type TSchema } from 'typebox';

/**
 * A row as the API shows it: timestamps become ISO 8601 text (null stays null), every other column
 * keeps its type. Views are written as `JsonView<Omit<Row, hidden columns>> & { computed fields }`,
 * so a column added to a row appears in its view, and the view function and the response schema
 * (describes, below) fail to compile until they show it or hide it.
 */
export type JsonView<Row> = {
  [K in keyof Row]: Row[K] extends Date ? string : Row[K] extends Date | null ? string | null : Row[K];
};

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Same fields at the top (an optional one is otherwise invisible to assignability), same types. */
type Describes<View, Schema extends TSchema> =
  Same<keyof View, keyof Static<Schema>> extends true
    ? Same<View, Static<Schema>> extends true
      ? []
      : [error: 'the schema types a field otherwise than the view']
    : [error: 'the schema and the view have different fields'];

/**
 * Ties a response schema to the view it serializes, at compile time: the serializer (made from
 * the schema) drops fields the schema does not declare and coerces types, so the schema must
 * declare exactly the view's fields with the view's types. Answers the schema unchanged; when they
 * differ, the call fails to compile ("Expected 2 arguments": the missing one names the problem).
 *
 *   export const ZoneResponse = describes<ZoneView>()(Type.Object({ ... }));
 */
export function describes<View>() {
  return <S extends TSchema>(schema: S, ..._check: Describes<View, S>): S => schema;
}

/** A timestamp as views show it (JsonView): ISO 8601 text. */
export const IsoTime = Type.String({ format: 'date-time' });

/** A field that may be null; declared as such, or the serializer would write null as "" or 0. */
export const Nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);

/** The 204 answer: no body (`reply.code(204).send()`). */
export const NoContent = Type.Unsafe<undefined>({ type: 'null', description: 'No content' });
