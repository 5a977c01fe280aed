import * as v from 'valibot';
import type { FailureKind } from './failure.ts';
import { kindMessage } from './validate.ts';

/**
 * String length bounds counted in Unicode code points.
 *
 * Why not `v.minLength`: valibot counts UTF-16 code units, so a CJK quote with
 * an astral character would be measured differently from what the exported
 * JSON Schema (`minLength`/`maxLength`, which count code points) promises.
 * These actions validate in code points and export as minLength/maxLength.
 */
const bounds = new WeakMap<object, { readonly min: number; readonly max: number }>();

/** Counts Unicode code points (not UTF-16 units, not graphemes). */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Creates a check action that requires `min ≤ code points ≤ max`. The message
 * starts with `kind` so validation reports it as that kind.
 */
export function codePoints(min: number, max: number, kind: FailureKind = 'length'): v.CheckAction<string, string> {
  const action = v.check<string, string>((text) => {
    const length = codePointLength(text);
    return length >= min && length <= max;
  }, kindMessage(kind, `must be ${min}..${max} Unicode code points`));
  bounds.set(action, { min, max });
  return action;
}

/** The code-point bounds of an action made by `codePoints`, if it is one. */
export function codePointBounds(action: object): { readonly min: number; readonly max: number } | undefined {
  return bounds.get(action);
}
