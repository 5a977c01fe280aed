import { checkArgumentLimits } from '../argument-limits.ts';
import { next, stop, type CallStage } from './stage.ts';

/**
 * convert: model-facing arguments → contract arguments under the pinned
 * binding. The model's raw arguments meet the argument bounds first; a call
 * past them is refused as a `validate` failure, before the converter reads it.
 */
export const convert: CallStage<'binding'> = {
  name: 'convert',
  needs: ['binding'],
  run(state) {
    const bounded = checkArgumentLimits(state.call.arguments);
    if (!bounded.ok) return stop(bounded, {}, 'validate');
    const converted = state.pipeline.convert(state.binding, state.call.arguments);
    if (!converted.ok) return stop(converted);
    const { filled } = converted.value;
    const args = { ...state.arguments, converted: converted.value.converted, ...(filled.length > 0 ? { filled } : {}) };
    return next({ arguments: args }, state.binding.conversion.arguments);
  },
};
