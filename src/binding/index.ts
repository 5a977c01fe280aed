/**
 * Request bindings: pin each model request to the exact contracts,
 * model-facing schemas, conversions and implementations it was shown, and
 * convert arguments without losing the difference between missing, null and
 * a value.
 */
export { bind, bindingId, tryBind } from './binding.ts';
export type { Binding, BindingBody, BindOptions, BoundContract, HttpEndpoint, Implementation, ServerEndpoint, ServerIdentity, StdioEndpoint, ToolNaming } from './binding.ts';
export { hashSuffix, MODEL_TOOL_NAME, modelToolName, qualifiedName, replaceOther, TOOL_NAME_RULE, TOOL_NAME_STEM } from './tool-name.ts';
export {
  ANTHROPIC_CONVERSION,
  MODEL_TARGETS,
  PLAIN_CONVERSION,
  prepareTarget,
  RESULT_CONVERSION,
} from './targets.ts';
export type { ModelTarget, TargetCodec } from './targets.ts';
export { STRICT_CONVERSION } from './strict-codec.ts';
export { STRICT_LIMITS } from './strict-limits.ts';
export { isJsonObject, MISSING, operationOf, readField } from './missing.ts';
export type { FieldOperation, Missing } from './missing.ts';
export { checkRoundTrip, convertArguments, toModelArguments } from './convert.ts';
export type { ConvertedArguments } from './convert.ts';
export { resolvePinned } from './resolve.ts';
export { bindTable, freezeTable } from './table.ts';
export type { ToolEntry, ToolTable } from './table.ts';
export { describeTools, renderToolsText } from './describe.ts';
export type { ToolDescription, ToolsDescription } from './describe.ts';
export { strictConforms, strictViolations } from './strict-rules.ts';
export { BINDING_KINDS } from './kinds.ts';
