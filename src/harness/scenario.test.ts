import { expect, test } from 'bun:test';
import { assetText } from '../assets/index.ts';
import { loadScenario } from './scenario.ts';

const happy = JSON.parse(assetText('fixtures/scenarios/happy.json')!);
const fromText = (doc: unknown) => loadScenario('/scenarios/x.json', () => JSON.stringify(doc));

test('a scenario file loads; a field the schema does not know (such as the retired builtin_check) is refused by name', () => {
  expect(fromText(happy).ok).toBe(true);
  const refused = fromText({ ...happy, builtin_check: true });
  expect(refused.ok ? 'ok' : `${refused.class}/${refused.kind}`).toBe('invalid_arguments/bad_scenario');
  if (!refused.ok) expect(refused.message).toContain('builtin_check');
});
