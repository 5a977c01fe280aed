import type { ValidateFunction } from 'ajv';
import { LIMITS, schemaHash } from '../contract/index.ts';
import { excerpt, finding, type ProbeFinding } from './probe-finding.ts';
import { compileToolSchema } from './probe-schema.ts';
import type { VersionProfile } from './probe-versions.ts';

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
}

/** What a call needs to judge a result: the compiled outputSchema, if the tool has one that compiles. */
export interface ToolRuntime {
  readonly hasOutputSchema: boolean;
  readonly validateOutput?: ValidateFunction;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Checks one page-joined tools/list: each entry's shape, name rule,
 * schemas (compiled, never fetched) and description size; then duplicate
 * names across pages.
 */
export function checkTools(
  listed: readonly unknown[],
  profile: VersionProfile,
): { tools: ProbedTool[]; runtimes: Map<string, ToolRuntime>; findings: ProbeFinding[] } {
  const tools: ProbedTool[] = [];
  const runtimes = new Map<string, ToolRuntime>();
  const findings: ProbeFinding[] = [];
  for (const entry of listed) {
    if (!isObject(entry) || typeof entry['name'] !== 'string') {
      findings.push(finding('protocol', 'malformed_tool', 'spec MUST', 'a tools/list entry has no string name', { evidence: excerpt(entry) }));
      continue;
    }
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
    if (!isObject(input) || input['type'] !== 'object') {
      findings.push(finding('protocol', 'input_schema', 'spec MUST', 'inputSchema is not an object schema ({"type":"object",…})', { tool: name, evidence: excerpt(input, 80) }));
    } else {
      findings.push(...compileToolSchema(input, 'inputSchema', name, profile).findings);
    }
    let runtime: ToolRuntime = { hasOutputSchema: false };
    if (output !== undefined) {
      if (!profile.structured) {
        // Not part of this revision: listed, not judged.
      } else if (!isObject(output) || output['type'] !== 'object') {
        findings.push(finding('protocol', 'output_schema', 'spec MUST', 'outputSchema is not an object schema ({"type":"object",…})', { tool: name, evidence: excerpt(output, 80) }));
        runtime = { hasOutputSchema: true };
      } else {
        const compiled = compileToolSchema(output, 'outputSchema', name, profile);
        findings.push(...compiled.findings);
        runtime = { hasOutputSchema: true, ...(compiled.validate ? { validateOutput: compiled.validate } : {}) };
      }
    }
    if (!runtimes.has(name)) runtimes.set(name, runtime);
    const annotations = entry['annotations'];
    const title = entry['title'];
    tools.push({
      name,
      ...(typeof title === 'string' ? { title } : {}),
      ...(typeof description === 'string' ? { description } : {}),
      ...(input !== undefined ? { inputSchemaHash: schemaHash(input as Readonly<Record<string, unknown>>) } : {}),
      ...(output !== undefined ? { outputSchemaHash: schemaHash(output as Readonly<Record<string, unknown>>) } : {}),
      ...(isObject(annotations) ? { annotations } : {}),
      ...(entry['icons'] !== undefined ? { icons: entry['icons'] } : {}),
    });
  }
  const names = tools.map((tool) => tool.name);
  const duplicates = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
  for (const name of duplicates) {
    findings.push(finding('protocol', 'duplicate_tool', profile.nameRule, 'tool name listed more than once', { tool: name, evidence: `${names.filter((n) => n === name).length} entries` }));
  }
  return { tools, runtimes, findings };
}
