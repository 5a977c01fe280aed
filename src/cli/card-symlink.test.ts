import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../harness/index.ts';
import { execute, parseRunFlags, scripted } from './run-command.ts';
import { testIo } from './test-io.ts';
import { excerptCli } from './testing/excerpt-cli.ts';
import { exitCodeOf } from './exit.ts';

const scratch = mkdtempSync(join(tmpdir(), 'caplab-card-link-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('a symlink planted at card/ mid-run: the card is refused (precondition/unsafe_path), nothing lands outside, the run is not accepted', async () => {
  const outside = join(scratch, 'outside');
  mkdirSync(outside);
  const parsed = parseRunFlags(['--transport', 'local', '--run-id', 'linked'], 'demo', excerptCli());
  if (!parsed.ok) throw new Error(parsed.message);
  const flags = parsed.value;
  const scenario = loadScenario(excerptCli().scenarios.folder, 'happy');
  if (!scenario.ok) throw new Error(scenario.message);
  let planted = false;
  const executed = await execute(flags, scripted(scenario.value), testIo(scratch), excerptCli(), (step) => {
    // After the first call (a read), before the create: someone plants card/ -> outside.
    if (step.type === 'call' && !planted) {
      planted = true;
      symlinkSync(outside, join(scratch, 'caplab-runs', 'linked', 'card'));
    }
  });
  expect(planted).toBe(true);
  if (!executed.ok) throw new Error(executed.failure.message);
  const { loop } = executed.outcome;
  expect(loop.accepted).toBe(false);
  const create = loop.calls.find((c) => c.name === 'create_card');
  expect(create?.outcome.ok === false && [create.outcome.class, create.outcome.kind]).toEqual(['precondition', 'unsafe_path']);
  expect(readdirSync(outside)).toEqual([]);
  expect(exitCodeOf(executed.outcome.ending)).toBe(1);
});
