import { RESERVED_LABELS } from './reserved-labels.ts';

/** Why a label cannot be claimed, or null when it can (availability's `reason`). */
export type LabelProblem = 'invalid' | 'reserved' | null;

/** 3 to 63 characters of `a-z0-9-`, no leading or trailing hyphen (input lower-cased first). */
const LABEL = /^(?!-)[a-z0-9-]{3,63}(?<!-)$/;

export function checkLabel(label: string): LabelProblem {
  if (!LABEL.test(label)) return 'invalid';
  // `xn--` labels are punycode of other names; the `--` in third and fourth place is kept for them.
  if (label.slice(2, 4) === '--') return 'invalid';
  return RESERVED_LABELS.has(label) ? 'reserved' : null;
}
