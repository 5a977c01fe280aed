import { fail, ok, type Outcome } from '../contract/index.ts';

/**
 * What caplab does with each top-level field of a SKILL.md frontmatter, in
 * the Agent Skills format (agentskills.io) and Claude Code's superset of it.
 * No field is refused for being there: a field caplab does not apply is kept
 * by name with why, and a field it knows of no reader for is kept as unknown.
 * A field caplab honours must have a value of its type, or the package is
 * refused naming the field: ignoring it would list the package other than
 * its author said (a `disable-model-invocation: maybe` catalogued, say).
 */

/** A field accepted and recorded, not applied, with why. */
export interface NotApplied {
  readonly field: string;
  readonly reason: string;
}

/** Claude Code fields caplab accepts and records as not applied, each with why. */
export const NOT_APPLIED: Readonly<Record<string, string>> = {
  'user-invocable': 'caplab has no slash-command menu: a package is adopted by name (--skill, a scenario) or by the model',
  'argument-hint': 'caplab has no slash-command menu to show a hint in',
  arguments: 'nothing is substituted into the body: it is sent unaltered',
  context: 'run inline: caplab forks no subagent context',
  agent: 'run inline: caplab starts no subagent',
  model: "the run's model is the run's: a package does not switch it",
  effort: "the run's effort is the run's: a package does not set it",
  hooks: 'a package never installs hooks: hooks come from settings files only',
  'disallowed-tools': 'a package neither grants nor removes a tool: callable tools come from bindings and permissions only',
  shell: 'nothing in the body is run: it is sent verbatim',
};

/** Why a field neither format defines is not applied. */
export const UNKNOWN_FIELD = 'unknown field (not Agent Skills, not Claude Code): ignored';

/** Agent Skills fields that only inform a reader (caplab shows `metadata`'s caplab-* keys' effect, nothing else). */
const INFORMATIONAL = ['license', 'compatibility', 'metadata'];

/** Fields caplab reads and honours. */
const HONOURED = ['name', 'description', 'when_to_use', 'disable-model-invocation', 'paths', 'allowed-tools'];

/** Every field but the honoured and informational ones, sorted, each with why it is not applied. */
export function notAppliedFields(data: Readonly<Record<string, unknown>>): readonly NotApplied[] {
  return Object.keys(data)
    .filter((field) => !HONOURED.includes(field) && !INFORMATIONAL.includes(field))
    .sort()
    .map((field) => ({ field, reason: NOT_APPLIED[field] ?? UNKNOWN_FIELD }));
}

/** The honoured fields, read; `name` still to be checked against the folder. */
export interface HonouredFields {
  readonly name: string | undefined;
  /** Trimmed; absent, `null` or only blanks is no description (listed, never catalogued). */
  readonly description: string | undefined;
  readonly whenToUse: string | undefined;
  readonly disableModelInvocation: boolean;
  /** Globs, as written (`paths`: a string, a comma list or a YAML list). Empty: no condition. */
  readonly paths: readonly string[];
  /** Advisory only, never a grant (grant.ts). */
  readonly allowedTools: readonly string[];
}

function bad(field: string, message: string): Outcome<never> {
  return fail('invalid_arguments', 'bad_package', `field \`${field}\`: ${message}`);
}

/** Agent Skills name: 1–64 lowercase letters, digits, single hyphens, not at either end. */
export const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Why `name` is not a name, or undefined when it is one. */
export function nameProblem(name: string): string | undefined {
  if (name.length > 64) return 'at most 64 characters';
  if (!NAME_PATTERN.test(name)) return 'lowercase letters, digits and single hyphens only, not starting or ending with a hyphen';
  return undefined;
}

/** A text field: a string, trimmed; absent, `null` or blank is undefined. */
function text(data: Readonly<Record<string, unknown>>, field: string): Outcome<string | undefined> {
  const value = data[field];
  if (value === undefined || value === null) return ok(undefined);
  if (typeof value !== 'string') return bad(field, 'must be a string');
  const trimmed = value.trim();
  return ok(trimmed.length === 0 ? undefined : trimmed);
}

/**
 * Splits at each separator outside brackets, trimming and dropping empty
 * parts: `Bash(git add *)` keeps its space and `*.{ts,tsx}` its comma.
 */
export function splitOutsideBrackets(value: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let part = '';
  for (const c of value) {
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c) && depth > 0) depth--;
    if (depth === 0 && separator.test(c)) {
      parts.push(part);
      part = '';
    } else part += c;
  }
  parts.push(part);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** A list field: a string split at `separator` (outside brackets), or a YAML list of strings. */
function list(data: Readonly<Record<string, unknown>>, field: string, separator: RegExp, expected: string): Outcome<readonly string[]> {
  const value = data[field];
  if (value === undefined || value === null) return ok([]);
  if (typeof value === 'string') return ok(splitOutsideBrackets(value, separator));
  if (!Array.isArray(value)) return bad(field, `must be ${expected}`);
  const items: string[] = [];
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string') return bad(`${field}[${i}]`, 'must be a string');
    if (item.trim().length > 0) items.push(item.trim());
  }
  return ok(items);
}

/** Reads the fields caplab honours; a value not of its field's type refuses the package, naming the field. */
export function honouredFields(data: Readonly<Record<string, unknown>>): Outcome<HonouredFields> {
  const name = data['name'];
  if (name !== undefined && typeof name !== 'string') return bad('name', 'must be a string');
  const problem = name === undefined ? undefined : nameProblem(name);
  if (problem) return bad('name', problem);
  const description = text(data, 'description');
  if (!description.ok) return description;
  const whenToUse = text(data, 'when_to_use');
  if (!whenToUse.ok) return whenToUse;
  const disable = data['disable-model-invocation'] ?? false;
  if (typeof disable !== 'boolean') return bad('disable-model-invocation', 'must be true or false');
  // Claude Code: a comma list or a YAML list of globs; a glob's own `{a,b}` keeps its comma.
  const paths = list(data, 'paths', /,/, 'a glob, a comma-separated list of globs, or a YAML list of them');
  if (!paths.ok) return paths;
  // Agent Skills: space-delimited; Claude Code also takes commas and a YAML list.
  const allowedTools = list(data, 'allowed-tools', /[\s,]/, 'a string of tool names or a YAML list of them');
  if (!allowedTools.ok) return allowedTools;
  return ok({ name, description: description.value, whenToUse: whenToUse.value, disableModelInvocation: disable, paths: paths.value, allowedTools: allowedTools.value });
}
