import { ARGUMENT_BOUNDS, checkJson, fail, type Outcome } from '../contract/index.ts';

/**
 * The bounds every tool-call input meets before anything else reads it: the
 * model's arguments before conversion, and any input (converted, or rewritten
 * by a hook) before validation. Nesting past `LIMITS.argumentsDepth`, more
 * than `LIMITS.argumentsBytes` of canonical JSON, or a number JSON cannot
 * carry is `invalid_arguments` / `too_deep` | `too_large` | `non_finite_number`:
 * the call is refused and the run goes on.
 *
 * @example
 * checkArgumentLimits(JSON.parse('{"n":1e400}')); // fails: invalid_arguments/non_finite_number
 */
export function checkArgumentLimits(input: unknown): Outcome<unknown> {
  const checked = checkJson(input, ARGUMENT_BOUNDS);
  return checked.ok ? checked : fail(checked.class, checked.kind, `arguments: ${checked.message}`);
}
