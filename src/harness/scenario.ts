import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { assetPaths, assetText } from '../assets/index.ts';
import { ERROR_CLASSES, fail, validateArguments, type Outcome } from '../contract/index.ts';
import type { Model, ModelResponse } from './model.ts';

const Usage = v.strictObject({
  input_tokens: v.pipe(v.number(), v.integer(), v.minValue(0)),
  output_tokens: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
const Call = v.strictObject({ id: v.pipe(v.string(), v.minLength(1)), name: v.string(), arguments: v.unknown() });
const Step = v.union([
  v.strictObject({ tool_calls: v.pipe(v.array(Call), v.minLength(1)), text: v.optional(v.string()), usage: Usage }),
  v.strictObject({ text: v.string(), usage: Usage }),
]);

/** How a scenario is expected to end (read by `caplab check`). */
const Expect = v.strictObject({
  accepted: v.boolean(),
  /** The failure that must appear among the calls, when not accepted. */
  failure: v.optional(v.strictObject({ class: v.picklist(ERROR_CLASSES), kind: v.string() })),
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

/** Parses scenario JSON text; a bad file is `invalid_arguments` naming the field. */
function parseScenario(text: string, origin: string): Outcome<Scenario> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fail('invalid_arguments', 'bad_scenario', `${origin}: not JSON: ${String(error)}`);
  }
  const parsed = validateArguments(Scenario, json);
  return parsed.ok ? parsed : fail('invalid_arguments', 'bad_scenario', `${origin}: ${parsed.message}`, parsed.issues);
}

/** Names of the built-in (embedded) scenarios. */
export function builtinScenarioNames(): readonly string[] {
  return assetPaths('fixtures/scenarios')
    .filter((path) => path.endsWith('.json'))
    .map((path) => path.slice('fixtures/scenarios/'.length, -'.json'.length));
}

/** Loads a scenario by built-in name or by file path. */
export function loadScenario(nameOrFile: string, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): Outcome<Scenario> {
  const embedded = /^[a-z0-9-]+$/.test(nameOrFile) ? assetText(`fixtures/scenarios/${nameOrFile}.json`) : undefined;
  if (embedded !== undefined) return parseScenario(embedded, nameOrFile);
  let text: string;
  try {
    text = readFile(nameOrFile);
  } catch {
    const known = builtinScenarioNames().join(', ');
    return fail('invalid_arguments', 'unknown_scenario', `no built-in scenario or file ${JSON.stringify(nameOrFile)} (built-in: ${known})`);
  }
  return parseScenario(text, nameOrFile);
}

/**
 * A model that replays a scenario. Every response says `scripted: true` and
 * its usage says `synthetic: true`; it never pretends to be a model.
 */
export function scriptedModel(scenario: Scenario): Model {
  return {
    name: `scripted:${scenario.name}`,
    scripted: true,
    respond: async ({ index }): Promise<ModelResponse | undefined> => {
      const step = scenario.responses[index];
      if (!step) return undefined;
      const usage = { ...step.usage, synthetic: true };
      const id = `msg_scripted_${String(index + 1).padStart(2, '0')}`;
      if ('tool_calls' in step) {
        const content = [
          ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
          ...step.tool_calls.map((call) => ({ type: 'tool_use' as const, id: call.id, name: call.name, input: call.arguments })),
        ];
        return { id, scripted: true, content, stop_reason: 'tool_use', usage };
      }
      return { id, scripted: true, content: [{ type: 'text', text: step.text }], stop_reason: 'end_turn', usage };
    },
  };
}
