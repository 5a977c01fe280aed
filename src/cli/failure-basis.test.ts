/**
 * A strict-client refusal names its basis wherever a run shows the failure:
 * the human report, --json, and the ledger's call event.
 */
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { misbehaveLaunch } from '../excerpt/testing/misbehave-launch.ts';
import { EXIT } from './exit.ts';
import { parseRunFlags, runCommand } from './run-command.ts';
import { testIo } from './test-io.ts';
import { scratchDir } from '../../test/scratch.ts';
import { excerptTaskOverMcp } from '../excerpt/index.ts';
import { excerptCli } from './testing/excerpt-cli.ts';

const flags = (args: string[]) => {
  const parsed = parseRunFlags(args, 'demo', excerptCli());
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};
// A stray stdout line in answer to tools/call: protocol/framing, the spec's MUST.
const stray = () => excerptCli(excerptTaskOverMcp({ envSource: {}, launch: misbehaveLaunch('stray') }));

test('a refused MCP call shows its basis: text report, --json result, ledger call event', async () => {
  const json = testIo(scratchDir('caplab-basis-'));
  expect(await runCommand(flags(['--json']), json, stray())).toBe(EXIT.protocol);
  const doc = JSON.parse(json.out());
  const refused = doc.calls.find((c: { result: { ok: boolean } }) => !c.result.ok);
  expect(refused.result).toMatchObject({ ok: false, class: 'protocol', kind: 'framing', basis: 'spec MUST' });
  const events = readFileSync(doc.ledger.path, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const failed = events.filter((e) => e.type === 'call' && e.outcome.ok === false).map((e) => e.outcome);
  expect(failed).toContainEqual(expect.objectContaining({ class: 'protocol', kind: 'framing', basis: 'spec MUST' }));

  const text = testIo(scratchDir('caplab-basis-'));
  expect(await runCommand(flags([]), text, stray())).toBe(EXIT.protocol);
  expect(text.out()).toContain('protocol/framing [spec MUST]: ');
});

test('a failure with no basis (not a refusal of the peer) prints as before', async () => {
  const text = testIo(scratchDir('caplab-basis-'));
  const crash = excerptCli(excerptTaskOverMcp({ envSource: {}, launch: misbehaveLaunch('crash') }));
  expect(await runCommand(flags([]), text, crash)).toBe(EXIT.unknown);
  expect(text.out()).toMatch(/closed\/connection_lost: /);
});
