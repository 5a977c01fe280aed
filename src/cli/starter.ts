import { ARGUMENT_BOUNDS, checkJson, LIMITS, type JsonSchema, type SchemaValidator } from '../contract/index.ts';

/** One tool a configured server listed, as the starter reads it: bound (its model name, hints and input validator) or unbound (why). */
export type StarterTool =
  | {
      readonly status: 'bound';
      /** The name the model calls it by (`mcp__<key>__<tool>`, rewritten where the Messages API needs it). */
      readonly modelName: string;
      /** Its annotations as the server listed them. */
      readonly hints: Readonly<Record<string, unknown>>;
      /** Its listed inputSchema (`jsonSchema`) and the Ajv validator a run checks arguments with. */
      readonly input: Pick<SchemaValidator, 'jsonSchema' | 'validate'>;
    }
  | { readonly status: 'unbound'; readonly server: string; readonly name: string; readonly failure: { readonly class: string; readonly kind: string; readonly message: string } };

/** Arguments built for one tool, or why none could be. */
export type StarterArguments = { readonly ok: true; readonly args: Readonly<Record<string, unknown>> } | { readonly ok: false; readonly why: string };

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A value for one property schema: its `default`, else its first `enum`
 * value, else by `type` — number/integer its `minimum` or 0, string
 * `minLength` × `a`, boolean `false`; undefined when none of these covers it.
 */
function valueFor(schema: unknown): { readonly value: unknown } | { readonly why: string } {
  if (!isObject(schema)) return { why: 'no schema' };
  if (Object.hasOwn(schema, 'default')) return { value: schema['default'] };
  const choices = schema['enum'];
  if (Array.isArray(choices) && choices.length > 0) return { value: choices[0] };
  const { type, minimum, minLength } = schema;
  if (type === 'number' || type === 'integer') return { value: typeof minimum === 'number' ? minimum : 0 };
  if (type === 'boolean') return { value: false };
  if (type === 'string') {
    const length = minLength ?? 0;
    // A length no call could carry is not built (and a huge one would cost its bytes first).
    if (!Number.isSafeInteger(length) || (length as number) < 0) return { why: `minLength ${JSON.stringify(length)} is not a whole number` };
    if ((length as number) > LIMITS.argumentsBytes) return { why: `minLength ${length as number} is past LIMITS.argumentsBytes (${LIMITS.argumentsBytes})` };
    return { value: 'a'.repeat(length as number) };
  }
  return { why: 'no default, enum, or type number, integer, string or boolean' };
}

/**
 * The arguments of a starter call, from a tool's inputSchema: its required
 * properties only, each valued by `valueFor`. A required property none of
 * those rules covers leaves the tool without arguments, naming the property.
 */
export function starterArguments(schema: JsonSchema): StarterArguments {
  const required = Array.isArray(schema['required']) ? schema['required'].filter((name): name is string => typeof name === 'string') : [];
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const args: Record<string, unknown> = {};
  for (const name of [...new Set(required)]) {
    const made = valueFor(Object.hasOwn(properties, name) ? properties[name] : undefined);
    if ('why' in made) return { ok: false, why: `required property ${JSON.stringify(name)}: ${made.why}` };
    args[name] = made.value;
  }
  return { ok: true, args };
}

/**
 * Whether the starter calls a tool, and with what: its own hints must say
 * `readOnlyHint: true` and not `destructiveHint: true`; its arguments are
 * built by `starterArguments`, kept within the bounds a run allows, and
 * checked with the tool's own validator (Ajv on the listed schema): a set
 * that fails it is left out, naming the first issue.
 */
export function starterCall(tool: Extract<StarterTool, { status: 'bound' }>): StarterArguments {
  if (tool.hints['readOnlyHint'] !== true) return { ok: false, why: 'its hints do not say readOnlyHint: true' };
  if (tool.hints['destructiveHint'] === true) return { ok: false, why: 'its hints say destructiveHint: true' };
  const built = starterArguments(tool.input.jsonSchema);
  if (!built.ok) return built;
  const bounded = checkJson(built.args, ARGUMENT_BOUNDS);
  if (!bounded.ok) return { ok: false, why: `its arguments are past a call's bounds: ${bounded.message}` };
  const issues = tool.input.validate(built.args);
  const first = issues[0];
  if (first) return { ok: false, why: `its arguments ${clipped(built.args)} fail its inputSchema: ${first.path || '/'} ${first.message}` };
  return built;
}

/** A value as JSON, cut to 80 characters: enough to see which set failed. */
function clipped(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** A scenario name from the file it goes to: its basename without `.scenario.json` or `.json`, in `[a-z0-9-]` (`starter` when nothing is left). */
export function starterName(basename: string): string {
  const stem = basename.replace(/(\.scenario)?\.json$/i, '');
  const name = stem.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '');
  return name === '' ? 'starter' : name;
}

/** What a starter names: the scenario's name, the servers' keys, and every tool they listed. */
export interface StarterInput {
  readonly name: string;
  readonly servers: readonly string[];
  readonly tools: readonly StarterTool[];
}

/** A starter scenario as written (`JSON.stringify(starter, null, 2)`): an expectations scenario `parseScenario` reads. */
export interface Starter {
  readonly task: 'expectations';
  readonly name: string;
  readonly description: string;
  readonly servers: readonly string[];
  readonly permissions: { readonly allow: readonly string[] };
  readonly responses: readonly Readonly<Record<string, unknown>>[];
  readonly expect: { readonly calls: Readonly<Record<string, { readonly ok: true }>>; readonly end: { readonly calls: number; readonly stop: 'final_answer' } };
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A tool's name in the starter's description: its model name, or for an unbound tool `mcp__<key>__<tool>` as listed. */
const shownName = (tool: StarterTool): string => (tool.status === 'bound' ? tool.modelName : `mcp__${tool.server}__${tool.name}`);

/**
 * The starter scenario for the expectations task: one scripted response
 * with one call per tool `starterCall` keeps (in model-name order, ids
 * `call-01`, `call-02` …), then a final answer; each call expected `ok`,
 * the run expected to end with that many calls on the final answer, and
 * exactly those tools allowed. The description lists every tool left out
 * and why. Nothing here depends on time or order of listing: the same
 * servers give the same bytes.
 */
export function starterScenario(input: StarterInput): Starter {
  const kept: { readonly name: string; readonly args: Readonly<Record<string, unknown>> }[] = [];
  const left: string[] = [];
  for (const tool of [...input.tools].sort((a, b) => byName(shownName(a), shownName(b)))) {
    const made = tool.status === 'bound' ? starterCall(tool) : ({ ok: false, why: `unbound (${tool.failure.class}/${tool.failure.kind}: ${tool.failure.message})` } as const);
    // One response carries at most LIMITS.callsPerResponse calls: a run refuses a longer batch whole.
    if (made.ok && kept.length >= LIMITS.callsPerResponse) left.push(`${shownName(tool)}: past LIMITS.callsPerResponse (${LIMITS.callsPerResponse}) calls in one response`);
    else if (made.ok) kept.push({ name: shownName(tool), args: made.args });
    else left.push(`${shownName(tool)}: ${made.why}`);
  }
  const id = (index: number): string => `call-${String(index + 1).padStart(2, '0')}`;
  const usage = { input_tokens: 0, output_tokens: 0 } as const;
  const calls = kept.map((call, index) => ({ id: id(index), name: call.name, arguments: call.args }));
  return {
    task: 'expectations',
    name: input.name,
    description: describe(input.servers, kept.length, left),
    servers: [...input.servers],
    permissions: { allow: kept.map((call) => call.name) },
    responses: [...(calls.length > 0 ? [{ tool_calls: calls, usage }] : []), { text: 'Done.', usage }],
    expect: {
      calls: Object.fromEntries(calls.map((call) => [call.id, { ok: true } as const])),
      end: { calls: calls.length, stop: 'final_answer' },
    },
  };
}

function describe(servers: readonly string[], calls: number, left: readonly string[]): string {
  const head = `Starter written by \`caplab scenario new\` from the tools ${servers.join(', ')} listed: ${calls} scripted call${calls === 1 ? '' : 's'}, one per tool whose own hints say readOnlyHint: true and not destructiveHint: true, with its required arguments built from its inputSchema (default, else the first enum value, else minimum or 0, minLength × "a", false) and checked against it; each expected ok. Edit the arguments and expectations (values, output_valid, error) to state what your agent relies on.`;
  return left.length === 0 ? `${head} No tool was left out.` : `${head} Left out: ${left.join('; ')}.`;
}
