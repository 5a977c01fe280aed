/**
 * Tool contracts: what a capability takes, returns, may do and proves.
 * The root of the data flow contract → binding → pipeline → mcp → harness → cli.
 */
export { canonicalJson } from './canonical.ts';
export { canonicalHash, sha256Hex } from './hash.ts';
export { ERROR_CLASSES, fail, isUnknownOutcome, ok, refusal } from './failure.ts';
export type { Basis, ErrorClass, FailClass, Failure, FailureClass, FailureKind, FailureTables, KindRow, KindTable, Outcome, RefusalClass, RefusalKind, Success } from './failure.ts';
export { CONTRACT_KINDS } from './kinds.ts';
export type { AnySchema, Contract, Effect, ValibotContract } from './contract.ts';
export { mcpCompletion, mcpTaskCompletion, type BackgroundCompletion, type Completion, type CompletionStatuses } from './completion.ts';
export { exportContract, exportSchema, JSON_SCHEMA_DIALECT, schemaHash } from './schema.ts';
export type { ExportedContract, JsonSchema } from './schema.ts';
export { codePointLength, codePoints } from './code-points.ts';
export { kindMessage, validateArguments } from './validate.ts';
export { isSchemaValidator } from './validator.ts';
export type { ContractSchema, SchemaValidator, ValidationIssue } from './validator.ts';
export { ARGUMENT_BOUNDS, checkJson, FILE_JSON_BOUNDS, jsonTooDeep, LIMITS, parseJsonBounded, recordable } from './limits.ts';
export type { JsonBounds } from './limits.ts';
export { readBounded, readBoundedText } from './read-bounded.ts';
export type { BoundedReadFs, BoundedReadOptions } from './read-bounded.ts';
export { MIN_REDACTED_LENGTH, NO_REDACTION, redactCut, redactorFor } from './redact.ts';
export type { Redactor } from './redact.ts';
