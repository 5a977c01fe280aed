import { clip } from '../base/index.ts';
import { canonicalHash, fail, LIMITS, ok, type Completion, type Contract, type Outcome, type SchemaValidator, type ValidationIssue } from '../contract/index.ts';
import { loadListedValidator, type VersionProfile } from '../mcp/index.ts';
import type { FailureRecord } from './tools.ts';

/** Ends a description cut at `LIMITS.toolDescriptionBytes`: the model is told it saw part of it, and how much there was. */
export function descriptionCut(description: string): string {
  const bytes = new TextEncoder().encode(description).byteLength;
  if (bytes <= LIMITS.toolDescriptionBytes) return description;
  const marker = `\n[description cut: ${bytes} bytes]`;
  return `${clip(description, LIMITS.toolDescriptionBytes - marker.length, 'head')}${marker}`;
}

/** A listed tool entry, read as far as the host binds it: its name, description, schemas, annotations and `execution.taskSupport` as given. */
export interface ListedEntry {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  /** The tool's annotations as the server listed them: hints, never trusted. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** `execution.taskSupport` as listed (2025-11-25), unread until `mcpCompletion` reads it with the server's capabilities. */
  readonly taskSupport?: unknown;
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Reads one tools/list entry, or says why it cannot be bound: a tool is
 * named by a non-empty string and takes an object schema (`type: "object"`,
 * the spec's MUST for inputSchema); description, outputSchema and annotations
 * are optional but, when there, of their type.
 */
export function readListedEntry(entry: unknown): Outcome<ListedEntry> {
  if (!isObject(entry)) return fail('protocol', 'malformed_tool', 'a tools/list entry is not an object');
  const { name, description, inputSchema, outputSchema, annotations, execution } = entry;
  if (typeof name !== 'string' || name === '') return fail('protocol', 'malformed_tool', 'a tools/list entry has no name');
  if (description !== undefined && typeof description !== 'string') return fail('protocol', 'malformed_tool', `${name}: description is not a string`);
  if (!isObject(inputSchema) || inputSchema['type'] !== 'object') return fail('protocol', 'malformed_tool', `${name}: inputSchema is not an object schema (type "object")`);
  if (outputSchema !== undefined && (!isObject(outputSchema) || outputSchema['type'] !== 'object')) return fail('protocol', 'malformed_tool', `${name}: outputSchema is not an object schema (type "object")`);
  if (annotations !== undefined && !isObject(annotations)) return fail('protocol', 'malformed_tool', `${name}: annotations is not an object`);
  return ok({
    name,
    description: description ?? '',
    inputSchema,
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
    ...(isObject(execution) && execution['taskSupport'] !== undefined ? { taskSupport: execution['taskSupport'] } : {}),
  });
}

/** The result schema of a tool that lists no outputSchema: its data is `{ content }`, the blocks as received. */
const CONTENT_RESULT_SCHEMA = Object.freeze({
  type: 'object',
  properties: Object.freeze({ content: Object.freeze({ type: 'array' }) }),
  required: Object.freeze(['content']),
  additionalProperties: false,
});

/** Validates `{ content: [...] }` and nothing else: the data of a result that has no structuredContent. */
export const CONTENT_RESULT: SchemaValidator = Object.freeze({
  kind: 'json-schema' as const,
  jsonSchema: CONTENT_RESULT_SCHEMA,
  validate(value: unknown): readonly ValidationIssue[] {
    if (!isObject(value)) return [{ keyword: 'type', path: '', message: 'must be an object' }];
    const extra = Object.keys(value).filter((key) => key !== 'content');
    const issues: ValidationIssue[] = extra.map((key) => ({ keyword: 'additionalProperties', path: `/${key}`, message: 'must not be there' }));
    if (!Array.isArray(value['content'])) issues.push({ keyword: value['content'] === undefined ? 'required' : 'type', path: '/content', message: 'must be an array' });
    return issues;
  },
});

/** Compiles a listed schema into its validator, or says why it cannot be (the schema unit's findings, the first as the failure). */
export type CompileListed = (schema: object, which: 'inputSchema' | 'outputSchema', tool: string) => Outcome<SchemaValidator>;

/**
 * Compiles listed schemas with Ajv (its unit loaded here, on first use) as
 * the revision reads a schema without `$schema`. A schema without a
 * validator (it does not compile, refers outside itself, nests too deep…)
 * is `protocol/unbindable_schema`, naming the first finding; the tool stays unbound.
 */
export async function listedCompiler(profile: VersionProfile): Promise<CompileListed> {
  const listedValidator = await loadListedValidator();
  return (schema, which, tool) => {
    const compiled = listedValidator(schema, which, tool, profile);
    if (compiled.validator) return ok(compiled.validator);
    const first = compiled.findings[0];
    return fail('protocol', 'unbindable_schema', `${tool}: ${which}: ${first ? `${first.kind}: ${first.message}` : 'not compiled'}`, compiled.findings.map((f) => `${f.kind}: ${f.message}`));
  };
}

/** What a configured server's tool is bound from: its contract and the schema validators the session checks results with. */
export interface ConfiguredContract {
  readonly contract: Contract;
  /** The outputSchema's validator, when the tool listed one (the session then requires structuredContent). */
  readonly output?: SchemaValidator;
}

/**
 * A configured server's tool as a contract. Nothing the server says about
 * the tool is trusted: its effect is `external`, and it is never read-only,
 * idempotent nor safe to run beside another call, whatever its annotations
 * say (they are kept as `hints`); so its default permission is `ask`. The
 * description is cut at `LIMITS.toolDescriptionBytes`, and the model sees
 * at most `LIMITS.mcpResultBytes` of a result. The version names the listed
 * entry by its hash (but its `taskSupport`): another definition under the
 * same name is another contract. With a `completion` (`mcpCompletion` read
 * the entry's `taskSupport` and its server's capabilities), the contract
 * completes in the background and its handler's deadline is `taskHandlerMs`.
 */
export function configuredContract(key: string, entry: ListedEntry, compile: CompileListed, timeoutMs: number, completion?: Completion): Outcome<ConfiguredContract> {
  const input = compile(entry.inputSchema, 'inputSchema', entry.name);
  if (!input.ok) return input;
  const output = entry.outputSchema === undefined ? undefined : compile(entry.outputSchema, 'outputSchema', entry.name);
  if (output && !output.ok) return output;
  const description = descriptionCut(entry.description);
  // The hash names the listed entry but its taskSupport, which the completion states (with what the server declared).
  const { taskSupport: _read, ...listed } = entry;
  const contract: Contract = {
    name: entry.name,
    version: `listed:${canonicalHash(listed).slice(0, 16)}`,
    discovery: description.split('\n', 1)[0] ?? '',
    description,
    input: input.value,
    result: output?.value ?? CONTENT_RESULT,
    effect: 'external',
    readOnly: false,
    destructive: true,
    idempotent: false,
    concurrencySafe: false,
    openWorld: true,
    identity: `MCP server ${key}, with the credentials its configuration gives it`,
    preconditions: [],
    limits: { timeoutMs: completion ? taskHandlerMs(timeoutMs) : timeoutMs, maxResultBytes: LIMITS.mcpResultBytes },
    completionEvidence: 'the tools/call result as the server sent it; nothing in it is checked against host state',
    errorClasses: ['invalid_arguments', 'permission_denied', 'precondition', 'business', 'protocol', 'closed', 'timeout', 'evidence'],
    ...(entry.annotations !== undefined ? { hints: entry.annotations } : {}),
    ...(completion ? { completion } : {}),
  };
  return ok({ contract, ...(output?.value ? { output: output.value } : {}) });
}

/**
 * The handler's deadline for a call made as a task whose own deadline is
 * `timeoutMs`: room past it for the one `tasks/cancel` and the result and
 * closing get a terminal task is allowed (each at least `taskPollFloorMs`),
 * so the task's unknown outcome, with its taskId, is what gets recorded.
 */
export function taskHandlerMs(timeoutMs: number): number {
  return timeoutMs + LIMITS.taskCancelMs + 2 * LIMITS.taskPollFloorMs;
}

/** A failure as run_start records it. */
export function failureRecord(failure: { readonly class: string; readonly kind: string; readonly message: string }): FailureRecord {
  return { class: failure.class, kind: failure.kind, message: failure.message };
}
