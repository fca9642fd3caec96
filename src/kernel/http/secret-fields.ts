import type { ValidationProblem } from '../errors/app-error.ts';
import { SECRET_FIELDS } from '../log/secret-field-names.ts';

export { SECRET_FIELDS };

/** The longest `input` a 422 carries: longer text is cut here and ends with `…`. */
export const MAX_INPUT_CHARS = 256;
/** The longest `msg` a 422 carries. */
export const MAX_MSG_CHARS = 512;

export const REDACTED = '<redacted>';

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELDS.has(k) ? REDACTED : redactValue(v);
  return out;
}

/**
 * The problem with its `input` cleaned: the whole input when the problem is about a secret field
 * (its `loc` names one), else every secret field inside an object input (a missing field's
 * problem carries the whole body), then cut to MAX_INPUT_CHARS.
 */
export function redactProblem(raw: ValidationProblem): ValidationProblem {
  // A module's message may quote what it refused (a zone file's token): bounded as the input is.
  const problem =
    raw.msg.length > MAX_MSG_CHARS ? { ...raw, msg: `${raw.msg.slice(0, MAX_MSG_CHARS)}…` } : raw;
  const aboutSecret = problem.loc.some((part) => typeof part === 'string' && SECRET_FIELDS.has(part));
  if (aboutSecret) return { ...problem, input: problem.input === null ? null : REDACTED };
  // A body that is text or a list where an object belongs has no field names to judge its parts
  // by (a form, `["password", ...]`): none of it comes back.
  const wholeBody = problem.loc.length === 1 && problem.loc[0] === 'body';
  if (wholeBody && (typeof problem.input === 'string' || Array.isArray(problem.input)))
    return { ...problem, input: REDACTED };
  return { ...problem, input: cut(redactValue(problem.input)) };
}

/**
 * An input no longer than MAX_INPUT_CHARS: longer text is cut; an object or list whose JSON is
 * longer becomes that JSON, cut. A 422 names what is wrong; it need not carry megabytes back.
 */
function cut(input: unknown): unknown {
  const shorten = (text: string) => `${text.slice(0, MAX_INPUT_CHARS)}…`;
  if (typeof input === 'string') return input.length > MAX_INPUT_CHARS ? shorten(input) : input;
  if (typeof input !== 'object' || input === null) return input;
  const text = JSON.stringify(input);
  return text.length > MAX_INPUT_CHARS ? shorten(text) : input;
}
