import { fail, ok, type Outcome } from '../contract/index.ts';
import { CONTENT_RESULT, type ExpectationsScenario, type OfferedTool } from '../harness/index.ts';

const bad = (message: string) => fail('invalid_arguments', 'bad_scenario', message);

/** The scripted calls of a scenario by id: the tool each asks for, every time an id is used. */
function scriptedCalls(scenario: ExpectationsScenario): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const step of scenario.responses) for (const call of step.tool_calls ?? []) byId.set(call.id, [...(byId.get(call.id) ?? []), call.name]);
  return byId;
}

/**
 * What the scenario's file alone says it cannot check: an expectation for a
 * call id no scripted response makes, or one two scripted calls share (the
 * expectation could not say which it means). Refused before anything starts.
 */
export function checkScripted(scenario: ExpectationsScenario): Outcome<void> {
  const byId = scriptedCalls(scenario);
  for (const id of Object.keys(scenario.expect.calls)) {
    const uses = byId.get(id)?.length ?? 0;
    if (uses === 0) return bad(`expect.calls.${id}: no scripted response makes a call with this id`);
    if (uses > 1) return bad(`expect.calls.${id}: ${uses} scripted calls share this id; an expectation names one call`);
  }
  return ok(undefined);
}

/**
 * The scenario against the run's tools (`Task.checkTools`): `output_valid`
 * needs its call's tool to be listed and to list an outputSchema (the data
 * of a tool without one is its content blocks, which any `{ content }`
 * passes). A call to a name no server lists stays the model's error.
 */
export function checkOutputTools(scenario: ExpectationsScenario, offers: readonly OfferedTool[]): Outcome<void> {
  const byId = scriptedCalls(scenario);
  for (const [id, expected] of Object.entries(scenario.expect.calls)) {
    if (!expected.output_valid) continue;
    const name = byId.get(id)?.[0] ?? '';
    const offer = offers.find((o) => o.binding.tool === name);
    if (!offer) return bad(`expect.calls.${id}.output_valid: the call's tool ${JSON.stringify(name)} is not one the scenario's servers list`);
    if (offer.contract.result === CONTENT_RESULT) return bad(`expect.calls.${id}.output_valid: tool ${JSON.stringify(name)} lists no outputSchema, so there is nothing its data must validate against`);
  }
  return ok(undefined);
}
