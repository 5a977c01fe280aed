import { checkJson, LIMITS, schemaHash, type JsonSchema } from '../../contract/index.ts';
import { SchemaCompilers, type CompileMode } from './probe-ajv.ts';
import { excerpt, finding, type ProbeFinding } from './probe-finding.ts';
import { compileToolSchema, type CompiledSchema } from './probe-schema.ts';
import { taskSupportOf } from './probe-task-listing.ts';
import type { VersionProfile } from '../client/index.ts';

/** The tool-name rule: 1–128 of A-Za-z0-9_.- (the spec's SHOULD from 2025-11-25). */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** A description longer than this many characters is a finding (caplab host rule: it crowds the model's context). */
export const MAX_DESCRIPTION_CHARS: number = LIMITS.probeDescriptionChars;

/** One listed tool, summarised: hashes, not whole schemas. Annotations are the server's untrusted hints. */
export interface ProbedTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchemaHash?: string;
  readonly outputSchemaHash?: string;
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** As sent (2025-11-25 defines them); never fetched. */
  readonly icons?: unknown;
  /** `execution.taskSupport` as sent (2025-11-25: required, optional, forbidden); probe-task.ts checks it. */
  readonly taskSupport?: unknown;
}

/** What a call needs to judge a result: whether the tool declared an outputSchema, and for a tool probe calls, the schema and how it compiled. */
export interface ToolRuntime {
  readonly hasOutputSchema: boolean;
  /** `execution.taskSupport` as listed: whether (and how) a call may run as a task (probe-task.ts). */
  readonly taskSupport?: unknown;
  /** For a tool probe calls: its inputSchema compiled, so arguments it refuses are known before the answer (probe-task.ts). */
  readonly inputValid?: (args: unknown) => boolean;
  readonly output?: { readonly schema: object; readonly mode: CompileMode };
}

export interface CheckedTools {
  readonly tools: readonly ProbedTool[];
  readonly runtimes: ReadonlyMap<string, ToolRuntime>;
  readonly findings: readonly ProbeFinding[];
}

/** What one listing is checked with: the revision, the Ajv instances, the compile results by schema, and the tools probe will call. */
interface Checking {
  readonly profile: VersionProfile;
  readonly compilers: SchemaCompilers;
  /** `which` and canonical hash → what compiling gave (findings name the tool that was first). */
  readonly compiled: Map<string, CompiledSchema>;
  readonly called: ReadonlySet<string>;
  /** Compile time spent and left for this listing (`probeCompileMs`), and the schemas not compiled once it ran out. */
  readonly budget: { spentMs: number; skipped: number; readonly now: () => number };
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A schema's hash, unless it holds a number canonical JSON cannot write (then it has none; its finding says why). */
function hashOf(schema: unknown): string | undefined {
  return checkJson(schema, { maxDepth: Number.POSITIVE_INFINITY }).ok ? schemaHash(schema as JsonSchema) : undefined;
}

/** Compiles a schema once per listing: a schema identical to one already compiled gets that result, its findings renamed. */
function compileOnce(schema: object, hash: string | undefined, which: 'inputSchema' | 'outputSchema', tool: string, checking: Checking): CompiledSchema {
  const key = hash === undefined ? undefined : `${which} ${hash}`;
  const known = key === undefined ? undefined : checking.compiled.get(key);
  if (known) return { ...known, findings: known.findings.map((f) => ({ ...f, tool })) };
  const { budget } = checking;
  if (budget.spentMs > LIMITS.probeCompileMs) {
    budget.skipped++;
    return { findings: [] };
  }
  const started = budget.now();
  const compiled = compileToolSchema(schema, which, tool, checking.profile, checking.compilers);
  budget.spentMs += budget.now() - started;
  if (key !== undefined) checking.compiled.set(key, compiled);
  return compiled;
}

/** Checks one tools/list entry: shape, name rule, description size, both schemas. */
function checkTool(entry: unknown, checking: Checking): { tool?: ProbedTool; runtime?: ToolRuntime; findings: ProbeFinding[] } {
  const { profile } = checking;
  if (!isObject(entry) || typeof entry['name'] !== 'string') {
    return { findings: [finding('protocol', 'malformed_tool', 'spec MUST', 'a tools/list entry has no string name', { evidence: excerpt(entry) })] };
  }
  const findings: ProbeFinding[] = [];
  const name = entry['name'];
  if (!TOOL_NAME.test(name)) {
    findings.push(finding('protocol', 'tool_name', profile.nameRule, `tool name is not 1–128 of A-Za-z0-9_.- (${name.length} characters)`, { tool: name, evidence: excerpt(name, 60) }));
  }
  const description = entry['description'];
  if (typeof description === 'string' && description.length > MAX_DESCRIPTION_CHARS) {
    findings.push(finding('protocol', 'oversized_description', 'caplab host rule', `description has ${description.length} characters (limit ${MAX_DESCRIPTION_CHARS})`, { tool: name, evidence: excerpt(description) }));
  }
  const input = entry['inputSchema'];
  const output = entry['outputSchema'];
  const inputHash = input === undefined ? undefined : hashOf(input);
  let inputValid: ((args: unknown) => boolean) | undefined;
  const outputHash = output === undefined ? undefined : hashOf(output);
  if (!isObject(input) || input['type'] !== 'object') {
    findings.push(finding('protocol', 'input_schema', 'spec MUST', 'inputSchema is not an object schema ({"type":"object",…})', { tool: name, evidence: excerpt(input, 80) }));
  } else {
    const compiled = compileOnce(input, inputHash, 'inputSchema', name, checking);
    findings.push(...compiled.findings);
    if (compiled.validate && checking.called.has(name)) inputValid = compiled.validate;
  }
  let runtime: ToolRuntime = { hasOutputSchema: false };
  if (output !== undefined && profile.structured) {
    if (!isObject(output) || output['type'] !== 'object') {
      findings.push(finding('protocol', 'output_schema', 'spec MUST', 'outputSchema is not an object schema ({"type":"object",…})', { tool: name, evidence: excerpt(output, 80) }));
      runtime = { hasOutputSchema: true };
    } else {
      const compiled = compileOnce(output, outputHash, 'outputSchema', name, checking);
      findings.push(...compiled.findings);
      // Only a tool probe calls keeps its schema: judging compiles it again.
      runtime = { hasOutputSchema: true, ...(compiled.mode && checking.called.has(name) ? { output: { schema: output, mode: compiled.mode } } : {}) };
    }
  }
  const annotations = entry['annotations'];
  const title = entry['title'];
  const tool: ProbedTool = {
    name,
    ...(typeof title === 'string' ? { title } : {}),
    ...(typeof description === 'string' ? { description } : {}),
    ...(inputHash !== undefined ? { inputSchemaHash: inputHash } : {}),
    ...(outputHash !== undefined ? { outputSchemaHash: outputHash } : {}),
    ...(isObject(annotations) ? { annotations } : {}),
    ...(entry['icons'] !== undefined ? { icons: entry['icons'] } : {}),
    ...taskSupportOf(entry),
  };
  return { tool, runtime: { ...runtime, ...taskSupportOf(entry), ...(inputValid ? { inputValid: (args: unknown) => inputValid(args) === true } : {}) }, findings };
}

/** Names listed more than once, with their counts, in one pass. */
function duplicates(tools: readonly ProbedTool[], profile: VersionProfile): ProbeFinding[] {
  const counts = new Map<string, number>();
  for (const { name } of tools) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts]
    .filter(([, count]) => count > 1)
    .map(([name, count]) => finding('protocol', 'duplicate_tool', profile.nameRule, 'tool name listed more than once', { tool: name, evidence: `${count} entries` }));
}

export interface CheckOptions {
  /** The tools probe will call: only they keep their outputSchema for judging. */
  readonly called?: ReadonlySet<string>;
  /** The probe's Ajv instances (one per dialect and strictness per probe); by default fresh ones. */
  readonly compilers?: SchemaCompilers;
  readonly signal?: AbortSignal;
  /** The clock compile time is measured by (a test drives it). */
  readonly now?: () => number;
}

/** Lets the event loop run (a signal, a deadline) between two tools. */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Checks one page-joined tools/list: each entry's shape, name rule,
 * schemas (compiled, never fetched) and description size; then duplicate
 * names across pages. Every step is linear in the listing; it yields to the
 * event loop after each tool, and stops early once `signal` is aborted
 * (what was checked by then is returned).
 */
export async function checkTools(listed: readonly unknown[], profile: VersionProfile, options: CheckOptions = {}): Promise<CheckedTools> {
  const budget = { spentMs: 0, skipped: 0, now: options.now ?? (() => performance.now()) };
  const checking: Checking = { profile, compilers: options.compilers ?? new SchemaCompilers('listing'), compiled: new Map(), called: options.called ?? new Set(), budget };
  const tools: ProbedTool[] = [];
  const runtimes = new Map<string, ToolRuntime>();
  const findings: ProbeFinding[] = [];
  for (const entry of listed) {
    if (options.signal?.aborted) break;
    const checked = checkTool(entry, checking);
    findings.push(...checked.findings);
    if (checked.tool) {
      tools.push(checked.tool);
      if (!runtimes.has(checked.tool.name)) runtimes.set(checked.tool.name, checked.runtime!);
    }
    await yieldToEventLoop();
  }
  if (budget.skipped > 0) {
    const message = `compiling this listing's schemas took more than ${LIMITS.probeCompileMs} ms (probeCompileMs); ${budget.skipped} schema(s) after that were not compiled`;
    findings.push(finding('timeout', 'compile_budget', 'caplab host rule', message, { evidence: `${Math.round(budget.spentMs)} ms compiling` }));
  }
  findings.push(...duplicates(tools, profile));
  return { tools, runtimes, findings };
}
