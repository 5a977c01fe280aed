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

/** How a scenario is expected to end (read by `caplab check`). */
const Expect = v.strictObject({
  accepted: v.boolean(),
  /** The failure that must appear among the calls, when not accepted. */
  failure: v.optional(v.strictObject({ class: v.picklist(ERROR_CLASSES), kind: v.string() })),
  /** Every refused call's class/kind in call order: exactly these refusals, no other. */
  failures: v.optional(v.array(v.strictObject({ class: v.picklist(ERROR_CLASSES), kind: v.string() }))),
  /** Whether the task's artifact exists afterwards (`card`: the field's name in the scenario format). */
  card: v.optional(v.boolean()),
});

export const Scenario = v.strictObject({
  name: v.pipe(v.string(), v.regex(/^[a-z0-9-]+$/)),
  description: v.string(),
  skill: v.optional(v.string()),
  expect: Expect,
  responses: v.pipe(v.array(Step), v.minLength(1)),
});
export type Scenario = v.InferOutput<typeof Scenario>;

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
  const parsed = v.safeParse(Scenario, json.value);
  if (parsed.success) return ok(parsed.output);
  const issues = parsed.issues.map(describeIssue);
  return fail('invalid_arguments', 'bad_scenario', `${origin}: ${issues[0]}`, issues);
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

/**
 * Loads a scenario by built-in name (a file of the task's embedded scenario
 * `folder`) or by file path. A file is read with a stat first and at most
 * `LIMITS.scenarioBytes` (a FIFO, a device such as /dev/zero, or a directory
 * is refused by kind, never read).
 */
export function loadScenario(folder: string, nameOrFile: string, readFile: ReadScenarioFile = (p) => readBoundedText(p, LIMITS.scenarioBytes)): Outcome<Scenario> {
  const embedded = /^[a-z0-9-]+$/.test(nameOrFile) ? assetText(`${folder}/${nameOrFile}.json`) : undefined;
  if (embedded !== undefined) return parseScenario(embedded, nameOrFile);
  const text = readFile(nameOrFile);
  if (!text.ok && text.kind === 'not_found') {
    const known = builtinScenarioNames(folder).join(', ');
    return fail('invalid_arguments', 'unknown_scenario', `no built-in scenario or file ${JSON.stringify(nameOrFile)} (built-in: ${known})`);
  }
  if (!text.ok) return fail(text.class, text.kind, `--scenario ${text.message}`);
  return parseScenario(text.value, nameOrFile);
}

/**
 * A model that plays a scenario's steps. It and every response are labelled
 * `scripted` (`scripted: true` in each response file) and their usage says
 * `synthetic: true`; it never pretends to be a model.
 */
export function scriptedModel(scenario: Scenario): Model {
  const name = `scripted:${scenario.name}`;
  return {
    name,
    origin: 'scripted',
    record: { scenario: scenario.name, model: { name, ...originLabel('scripted') } },
    respond: async ({ index }): Promise<ModelResponse | Exhausted> => {
      const step = scenario.responses[index];
      if (!step) return { exhausted: 'the scripted model has no response left' };
      return scriptedResponse(step, `msg_scripted_${String(index + 1).padStart(2, '0')}`);
    },
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
