/**
 * Request bindings: pin each model request to the exact contracts,
 * model-facing schemas, conversions and implementations it was shown.
 */
export { bind, deepFreeze, PLAIN_CONVERSION } from './binding.ts';
export type { Binding, BindOptions, Implementation, ModelTarget, ServerIdentity } from './binding.ts';
