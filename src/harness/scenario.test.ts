/**
 * The scripted model never passes for a model (README: "always labelled
 * scripted; usage is synthetic"): the model and every response it replays,
 * in every built-in scenario, say so.
 */
import { expect, test } from 'bun:test';
import { builtinScenarioNames, loadScenario, scriptedModel } from './scenario.ts';

test('every response of every built-in scenario is labelled scripted, with synthetic usage', async () => {
  const names = builtinScenarioNames();
  expect(names.length).toBeGreaterThan(3);
  let responses = 0;
  for (const name of names) {
    const scenario = loadScenario(name);
    if (!scenario.ok) throw new Error(scenario.message);
    const model = scriptedModel(scenario.value);
    expect([model.name, model.scripted]).toEqual([`scripted:${name}`, true]);
    for (let index = 0; ; index++) {
      const response = await model.respond({ id: `req-${index}`, index, payload: new Uint8Array() });
      if (!response) break;
      expect({ name, index, scripted: response.scripted, synthetic: response.usage.synthetic }).toEqual({ name, index, scripted: true, synthetic: true });
      responses++;
    }
  }
  expect(responses).toBeGreaterThan(names.length);
});
