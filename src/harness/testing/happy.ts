/** Test code only: a fresh copy of the excerpt's `happy` scenario, to edit. */
import { EXCERPT_SCENARIOS } from '../../excerpt/index.ts';
import { loadScenario, type Scenario } from '../scenario.ts';

/** The built-in `happy` scenario, deep-copied so a test may change it. */
export function happyScenario(): Scenario {
  const loaded = loadScenario(EXCERPT_SCENARIOS.folder, 'happy');
  if (!loaded.ok) throw new Error(loaded.message);
  return structuredClone(loaded.value);
}
