import * as v from 'valibot';
import { assetPaths, assetText } from '../assets/index.ts';
import { issuePath } from '../base/index.ts';
import { ERROR_CLASSES, fail, FILE_JSON_BOUNDS, LIMITS, ok, parseJsonBounded, readBoundedText, type Outcome } from '../contract/index.ts';
import { originLabel, type Exhausted, type Model, type ModelResponse } from './model.ts';

const Usage = v.strictObject({
  input_tokens: v.pipe(v.number(), v.integer(), v.minValue(0)),
  output_tokens: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
const Call = v.strictObject({ id: v.pipe(v.string(), v.minLength(1)), name: v.string(), arguments: v.unknown() });
// One object, not a union of the two shapes: a union's failure says only "Expected Object but
// received Object", where one object's names the field (`responses.0: unknown key "scripted"`).
const Step = v.pipe(
  v.strictObject({ tool_calls: v.optional(v.pipe(v.array(Call), v.minLength(1))), text: v.optional(v.string()), usage: Usage }),
  v.check((step) => step.tool_calls !== undefined || step.text !== undefined, 'a step has tool_calls or text'),
);

/** How an excerpt scenario is expected to end (read by `caplab check`). */
const Expect = v.strictObject({
  accepted: v.boolean(),
  /** The failure that must appear among the calls, when not accepted. */
  failure: v.optional(v.strictObject({ class: v.picklist(ERROR_CLASSES), kind: v.string() })),
  /** Every refused call's class/kind in call order: exactly these refusals, no other. */
  failures: v.optional(v.array(v.strictObject({ class: v.picklist(ERROR_CLASSES), kind: v.string() }))),
  /** Whether the task's artifact exists afterwards (`card`: the field's name in the scenario format). */
  card: v.optional(v.boolean()),
});

/** An RFC 6901 JSON Pointer: empty (the whole value) or `/`-separated tokens, `~` only as `~0` or `~1`. */
export const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

/** Keys valibot's `v.record` drops without a word (its guard against prototype pollution). */
const DROPPED_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/**
 * A `v.record` that refuses, by name, a key it would otherwise drop: an
 * expectation under call id `constructor`, or a `values` key `__proto__`,
 * would silently check nothing.
 */
function keptRecord<const K extends v.GenericSchema<string>, const T extends v.GenericSchema>(key: K, value: T, what: string) {
  const dropped = (input: unknown): string | undefined =>
    input !== null && typeof input === 'object' ? DROPPED_KEYS.find((name) => Object.hasOwn(input, name)) : undefined;
  return v.pipe(
    v.unknown(),
    v.check((input) => dropped(input) === undefined, (issue) => `${what} ${JSON.stringify(dropped(issue.input))} cannot be kept (a JSON object key caplab's parser drops); use another`),
    v.record(key, value),
  );
}

/**
 * What one call must show, by its tool_use id: `ok: true`, or `error` (its
 * class, and kind when given); with `ok`, `values` (pointers into the call's
 * data, each compared as canonical JSON) and `output_valid` (its data
 * validates against the tool's outputSchema).
 */
const CallExpect = v.pipe(
  v.strictObject({
    ok: v.optional(v.literal(true)),
    error: v.optional(v.strictObject({ class: v.picklist(ERROR_CLASSES), kind: v.optional(v.pipe(v.string(), v.minLength(1))) })),
    values: v.optional(keptRecord(v.pipe(v.string(), v.regex(JSON_POINTER, 'is not a JSON Pointer (RFC 6901)')), v.unknown(), 'the key')),
    output_valid: v.optional(v.literal(true)),
  }),
  v.check((call) => (call.ok === undefined) !== (call.error === undefined), 'a call expectation has exactly one of ok: true and error'),
  v.check((call) => call.error === undefined || (call.values === undefined && call.output_valid === undefined), 'values and output_valid need ok: true, not error'),
);
export type CallExpectation = v.InferOutput<typeof CallExpect>;

/** How an expectations run ends: the calls it made, and why the loop stopped. */
export const END_STOPS = ['final_answer', 'script_exhausted', 'max_requests'] as const;
const EndExpect = v.strictObject({
  calls: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  stop: v.optional(v.picklist(END_STOPS)),
});

/** The expectations task's `expect`: per call by tool_use id, and the end. */
const Expectations = v.strictObject({
  calls: keptRecord(v.pipe(v.string(), v.minLength(1)), CallExpect, 'the call id'),
  end: v.optional(EndExpect),
});
export type Expectations = v.InferOutput<typeof Expectations>;

/** Permission rules a scenario adds, in Claude Code's rule syntax: one more settings source after the others (deny still wins). */
const Permissions = v.strictObject({
  allow: v.optional(v.array(v.string())),
  ask: v.optional(v.array(v.string())),
  deny: v.optional(v.array(v.string())),
});
export type ScenarioPermissions = v.InferOutput<typeof Permissions>;

/** A config key of `--mcp-config` (caplab.tool-name/1's server key). */
const ServerKey = v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'is not a server key'));

/** Fields every scenario may carry, whatever its task. */
const COMMON = {
  name: v.pipe(v.string(), v.regex(/^[a-z0-9-]+$/), v.maxLength(LIMITS.scenarioNameChars, `is at most ${LIMITS.scenarioNameChars} characters (LIMITS.scenarioNameChars)`)),
  description: v.string(),
  /** Config keys: only these servers start, each required. */
  servers: v.optional(v.pipe(v.array(ServerKey), v.minLength(1), v.check((keys) => new Set(keys).size === keys.length, 'names a server twice'))),
  permissions: v.optional(Permissions),
  /** Tools to defer, by name or whole server (`mcp__<key>`), as `--defer-tool` names them: sent with defer_loading, callable once a ToolSearch answer disclosed them. */
  defer: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1), v.check((names) => new Set(names).size === names.length, 'names a tool twice'))),
  /** Requests at most (default 8). */
  max_requests: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMITS.scenarioRequests, `is at most ${LIMITS.scenarioRequests} (LIMITS.scenarioRequests)`))),
  responses: v.pipe(v.array(Step), v.minLength(1)),
  /** Embedded subagent types (`fixtures/agents/<name>.md`) the run's Agent offers. */
  agents: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9-]+$/))), v.minLength(1), v.check((names) => new Set(names).size === names.length, 'names a type twice'))),
  /** Each subagent's own script, by the parent's Agent tool_use id (the parent's step shape). */
  subagents: v.optional(keptRecord(v.pipe(v.string(), v.minLength(1)), v.strictObject({ responses: v.pipe(v.array(Step), v.minLength(1)) }), 'the tool_use id')),
};

/** The excerpt task's scenario (no `task`, or `task: "excerpt"`): every built-in file. */
export const ExcerptScenario = v.pipe(
  v.strictObject({
    task: v.optional(v.literal('excerpt')),
    ...COMMON,
    skill: v.optional(v.string()),
    /** `direct` (default): the package's text in every request's system; `tool`: a `<skills>` catalog and the Skill tool (`--skill-mode`). */
    skill_mode: v.optional(v.picklist(['direct', 'tool'])),
    expect: Expect,
  }),
  v.check((scenario) => !(scenario.skill !== undefined && scenario.skill_mode === 'tool'), 'skill and skill_mode "tool" both say how the method reaches the model; give one (tool mode lists the catalog and adopts no package directly)'),
);
export type ExcerptScenario = v.InferOutput<typeof ExcerptScenario>;

/** The expectations task's scenario: its servers named, what each call and the end must show. */
export const ExpectationsScenario = v.strictObject({
  task: v.literal('expectations'),
  ...COMMON,
  servers: v.pipe(COMMON.servers.wrapped, v.minLength(1)),
  expect: Expectations,
});
export type ExpectationsScenario = v.InferOutput<typeof ExpectationsScenario>;

/** Every scenario task, by the `task` field (absent: the excerpt). */
export const SCENARIO_TASKS = ['excerpt', 'expectations'] as const;

/** Any scenario, as one schema (for a library user's `v.parse`; `parseScenario` names the field a bad file gets wrong). */
export const Scenario = v.union([ExcerptScenario, ExpectationsScenario]);
export type Scenario = ExcerptScenario | ExpectationsScenario;

/** The task a scenario names. */
export const scenarioTask = (scenario: Scenario): (typeof SCENARIO_TASKS)[number] => scenario.task ?? 'excerpt';

/**
 * Parses scenario JSON text; a bad file is `invalid_arguments` naming the
 * field. Nesting past `LIMITS.fileJsonDepth` is `too_deep` and a number JSON
 * cannot carry (`1e400`) is `non_finite_number`, both naming where; a call's
 * arguments nested within the file's limit but past the arguments' limit are
 * left for the pipeline to refuse, so a scenario can script that refusal.
 */
export function parseScenario(text: string, origin: string): Outcome<Scenario> {
  const json = parseJsonBounded(text, FILE_JSON_BOUNDS);
  if (!json.ok) {
    const kind = json.kind === 'not_json' ? 'bad_scenario' : json.kind;
    return fail('invalid_arguments', kind, `${origin}: ${json.message}`);
  }
  const task = (json.value as { task?: unknown } | null)?.task;
  if (task !== undefined && !(SCENARIO_TASKS as readonly unknown[]).includes(task)) {
    return fail('invalid_arguments', 'bad_scenario', `${origin}: task: unknown task ${JSON.stringify(task)} (known: ${SCENARIO_TASKS.join(', ')})`);
  }
  const parsed = task === 'expectations' ? v.safeParse(ExpectationsScenario, json.value) : v.safeParse(ExcerptScenario, json.value);
  // A key valibot's record would drop (`__proto__`, `constructor`, `prototype`) was refused by name in the schema (keptRecord).
  if (parsed.success) {
    const scripts = checkSubagentScripts(parsed.output);
    return scripts ? fail('invalid_arguments', scripts.kind, `${origin}: ${scripts.message}`) : ok(parsed.output);
  }
  const issues = parsed.issues.map(describeIssue);
  // An expectations file that forgot its `task` would hear only that `expect.accepted` is required.
  const expect = (json.value as { expect?: unknown } | null)?.expect;
  const forgot = task === undefined && expect !== null && typeof expect === 'object' && Object.hasOwn(expect, 'calls');
  const hint = forgot ? ' (expect.calls is the expectations task\'s: add "task": "expectations")' : '';
  return fail('invalid_arguments', 'bad_scenario', `${origin}: ${issues[0]}${hint}`, issues);
}

/** The tool_use names that start a subagent (the host's Agent, by either of its names). */
const AGENT_NAMES = ['Agent', 'Task'];

/**
 * A scenario's subagent scripts against its responses: each parent Agent
 * tool_use has a script and each script its parent tool_use (`bad_scenario`);
 * no tool_use id is used at two levels (`duplicate_call_id`: a result could
 * not be told apart). A subagent's own Agent call needs none: it is refused.
 */
function checkSubagentScripts(scenario: Scenario): { readonly kind: 'bad_scenario' | 'duplicate_call_id'; readonly message: string } | undefined {
  const scripts = scenario.subagents ?? {};
  const ids = (steps: Scenario['responses']) => steps.flatMap((step) => step.tool_calls ?? []);
  const parentCalls = ids(scenario.responses);
  const agentCalls = parentCalls.filter((call) => AGENT_NAMES.includes(call.name)).map((call) => call.id);
  const unscripted = agentCalls.find((id) => !Object.hasOwn(scripts, id));
  if (unscripted !== undefined) return { kind: 'bad_scenario', message: `responses: the Agent tool_use ${JSON.stringify(unscripted)} has no script under subagents` };
  const orphan = Object.keys(scripts).find((id) => !agentCalls.includes(id));
  if (orphan !== undefined) return { kind: 'bad_scenario', message: `subagents.${orphan}: no Agent tool_use of responses has this id` };
  const levels = [parentCalls.map((c) => c.id), ...Object.values(scripts).map((script) => ids(script.responses).map((c) => c.id))];
  const seen = new Map<string, number>();
  for (const [level, list] of levels.entries()) {
    for (const id of new Set(list)) {
      const other = seen.get(id);
      if (other !== undefined && other !== level) return { kind: 'duplicate_call_id', message: `tool_use id ${JSON.stringify(id)} is used at two levels (the parent and a subagent, or two subagents); every call needs its own id` };
      seen.set(id, level);
    }
  }
  return undefined;
}

/** One issue as `path: what is wrong`, an unknown key named as such (valibot says "Expected never"). */
function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = issuePath(issue) ?? '';
  const at = (where: string, text: string) => (where ? `${where}: ${text}` : text);
  if (issue.expected === 'never') return at(path.split('.').slice(0, -1).join('.'), `unknown key ${issue.received}`);
  if (issue.kind === 'schema' && issue.input === undefined) return at(path, 'is required');
  return at(path, issue.message);
}

/** Names of the built-in scenarios: the `.json` files of a task's embedded scenario folder (`Task.scenarios.folder`). */
export function builtinScenarioNames(folder: string): readonly string[] {
  return assetPaths(folder)
    .filter((path) => path.endsWith('.json'))
    .map((path) => path.slice(`${folder}/`.length, -'.json'.length));
}

/** Reads a scenario file as text, or says why not. */
export type ReadScenarioFile = (path: string) => Outcome<string>;

/** A scenario as loaded: parsed, and the text it was parsed from (what a run that keeps a copy keeps). */
export interface LoadedScenario {
  readonly scenario: Scenario;
  readonly text: string;
}

/**
 * Loads a scenario by built-in name (a file of the task's embedded scenario
 * `folder`) or by file path. A file is read with a stat first and at most
 * `LIMITS.scenarioBytes` (a FIFO, a device such as /dev/zero, or a directory
 * is refused by kind, never read).
 */
export function loadScenario(folder: string, nameOrFile: string, readFile: ReadScenarioFile = (p) => readBoundedText(p, LIMITS.scenarioBytes)): Outcome<Scenario> {
  const loaded = readScenario(folder, nameOrFile, readFile);
  return loaded.ok ? ok(loaded.value.scenario) : loaded;
}

/** `loadScenario`, with the text the scenario was parsed from. */
export function readScenario(folder: string, nameOrFile: string, readFile: ReadScenarioFile = (p) => readBoundedText(p, LIMITS.scenarioBytes)): Outcome<LoadedScenario> {
  const embedded = /^[a-z0-9-]+$/.test(nameOrFile) ? assetText(`${folder}/${nameOrFile}.json`) : undefined;
  const text = embedded !== undefined ? ok(embedded) : readFile(nameOrFile);
  if (!text.ok && text.kind === 'not_found') {
    const known = builtinScenarioNames(folder).join(', ');
    return fail('invalid_arguments', 'unknown_scenario', `no built-in scenario or file ${JSON.stringify(nameOrFile)} (built-in: ${known})`);
  }
  if (!text.ok) return fail(text.class, text.kind, `--scenario ${text.message}`);
  const parsed = parseScenario(text.value, nameOrFile);
  return parsed.ok ? ok({ scenario: parsed.value, text: text.value }) : parsed;
}

/**
 * A model that plays a scenario's steps. It and every response are labelled
 * `scripted` (`scripted: true` in each response file) and their usage says
 * `synthetic: true`; it never pretends to be a model.
 */
export function scriptedModel(scenario: Scenario): Model {
  return scriptOf(scenario, scenario.responses, '');
}

/** The model over one level's steps: the parent's, or a subagent's (its response ids `msg_scripted_<tool_use id>_NN`). */
function scriptOf(scenario: Scenario, responses: Scenario['responses'], prefix: string): Model {
  const name = `scripted:${scenario.name}`;
  const scripts = scenario.subagents ?? {};
  return {
    name,
    origin: 'scripted',
    record: { scenario: scenario.name, model: { name, ...originLabel('scripted') } },
    respond: async ({ index }): Promise<ModelResponse | Exhausted> => {
      const step = responses[index];
      if (!step) return { exhausted: 'the scripted model has no response left' };
      return scriptedResponse(step, `msg_scripted_${prefix}${String(index + 1).padStart(2, '0')}`);
    },
    // A subagent's script is its parent's only: a subagent starts none.
    ...(prefix === '' && Object.keys(scripts).length > 0
      ? { subagent: (id: string) => (Object.hasOwn(scripts, id) ? scriptOf(scenario, scripts[id]!.responses, `${id}_`) : undefined) }
      : {}),
  };
}

/** One step as a response; its message is what response files always held (`scripted: true`, synthetic usage). */
function scriptedResponse(step: Scenario['responses'][number], id: string): ModelResponse {
  const usage = { ...step.usage, synthetic: true } as const;
  const respond = (content: ModelResponse['content'], stop_reason: 'tool_use' | 'end_turn'): ModelResponse => ({
    id,
    origin: 'scripted',
    content,
    stop_reason,
    usage,
    message: { id, scripted: true, content, stop_reason, usage },
  });
  if (step.tool_calls) {
    const content = [
      ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
      ...step.tool_calls.map((call) => ({ type: 'tool_use' as const, id: call.id, name: call.name, input: call.arguments })),
    ];
    return respond(content, 'tool_use');
  }
  // A step without tool_calls has text (the schema checks it).
  return respond([{ type: 'text', text: step.text ?? '' }], 'end_turn');
}
