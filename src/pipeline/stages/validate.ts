import { validateArguments, type Outcome } from '../../contract/index.ts';
import { checkArgumentLimits } from '../argument-limits.ts';
import type { CallContext, RuntimeTool } from '../tool.ts';
import { next, stop, type CallStage } from './stage.ts';

/**
 * The one input check, for the converted input and for a hook's rewrite
 * alike: argument bounds, then the contract's input schema, then the
 * tool-specific check.
 */
export function validateInput(tool: RuntimeTool, input: unknown, context: CallContext): Outcome<unknown> {
  const bounded = checkArgumentLimits(input);
  if (!bounded.ok) return bounded;
  const checked = validateArguments(tool.contract.input, input);
  if (!checked.ok) return checked;
  const specific = tool.check?.(checked.value, context);
  return specific ?? checked;
}

/** validate: the converted input becomes the handler's input, or the call stops. */
export const validate: CallStage<'tool'> = {
  name: 'validate',
  needs: ['tool'],
  run(state) {
    const input = validateInput(state.tool, state.arguments.converted, state.context);
    return input.ok ? next({ input: input.value }) : stop(input);
  },
};
