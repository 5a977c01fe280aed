import { afterEach, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import type { ValidationIssue } from '../../contract/index.ts';
import { misbehaveLaunch } from '../../excerpt/testing/misbehave-launch.ts';
import { isRunning } from '../wire/testing/processes.ts';
import { openHostClient, type HostClient } from './host-client.ts';
import { FAST } from './testing/timeouts.ts';

/**
 * The host client over real server processes: the pinned
 * `@modelcontextprotocol/server-everything` (a devDependency, run by node as
 * its package's `start:stdio` does), and the misbehaving fixture server
 * crashing mid-call.
 */
const ROOT = join(import.meta.dir, '../../..');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const NODE = Bun.which('node', { PATH: '/usr/local/bin:/usr/bin:/bin' });
const ids = { toolCallId: 'toolu_1', actionId: 'act-1' };

const opened: HostClient[] = [];
afterEach(async () => {
  // Whatever a test did, no server of it may survive.
  for (const client of opened.splice(0)) {
    const report = await client.close();
    expect(report.survivors).toEqual([]);
    expect(isRunning(client.pid)).toBe(false);
  }
});

/** A hand validator for get-structured-content's outputSchema (temperature, conditions, humidity); the session only calls `validate`. */
const weather = {
  validate(value: unknown): readonly ValidationIssue[] {
    const v = value as Record<string, unknown>;
    return [
      ...(typeof v['temperature'] === 'number' ? [] : [{ keyword: 'type', path: '/temperature', message: 'must be number' }]),
      ...(typeof v['conditions'] === 'string' ? [] : [{ keyword: 'type', path: '/conditions', message: 'must be string' }]),
      ...(typeof v['humidity'] === 'number' ? [] : [{ keyword: 'type', path: '/humidity', message: 'must be number' }]),
    ];
  },
};

describe.skipIf(NODE === null)('openHostClient against server-everything', () => {
  test('lists 13 tools, calls get-sum (text) and get-structured-content (validated, text agreeing)', async () => {
    const launch = { command: [NODE!, EVERYTHING, 'stdio'], cwd: scratchDir(), env: { PATH: '/usr/bin:/bin' } };
    const client = await openHostClient({ key: 'everything', launch, timeouts: { ...FAST, handshakeMs: 60_000 } });
    if (!client.ok) throw new Error(`${client.class}/${client.kind}: ${client.message}`);
    opened.push(client.value);
    const session = client.value;
    expect(session.identity).toMatchObject({ key: 'everything', name: 'mcp-servers/everything', protocolVersion: '2025-11-25' });
    expect(session.listing).toMatchObject({ complete: true, pages: 1 });
    const names = session.listing.entries.map((entry) => (entry as { name: string }).name);
    expect(names).toHaveLength(13);
    expect(names).toContain('get-sum');

    const sum = await session.callTool({ name: 'get-sum' }, { a: 2, b: 3 }, ids);
    if (!sum.ok) throw new Error(sum.message);
    expect(sum.value.content).toEqual([{ type: 'text', text: 'The sum of 2 and 3 is 5.' }]);
    expect(sum.value.data).toEqual({ content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }] });

    const structured = await session.callTool({ name: 'get-structured-content', output: weather }, { location: 'Chicago' }, { toolCallId: 'toolu_2', actionId: 'act-2' });
    if (!structured.ok) throw new Error(structured.message);
    expect(structured.value.data).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    expect(structured.value.content).toEqual([{ type: 'text', text: JSON.stringify(structured.value.data) }]);
    expect(session.exchanges().map((e) => e.outcome)).toEqual(['ok', 'ok']);
    // It announces list_changed as it registers its conditional tools (before it answers tools/list):
    // answered by one re-list before the first call, and nothing drifted.
    expect(session.listChanged()).toEqual({ seen: 1, relists: [{ outcome: 'unchanged', changed: [], removed: [], added: [] }] });
  }, 90_000); // node starting the server: seconds
});

describe('a server process that dies mid-call', () => {
  test('the call is closed/connection_lost, the next precondition/server_closed, not sent', async () => {
    const client = await openHostClient({ key: 'crashing', launch: misbehaveLaunch('crash'), timeouts: FAST });
    if (!client.ok) throw new Error(`${client.class}/${client.kind}: ${client.message}`);
    opened.push(client.value);
    const first = await client.value.callTool({ name: 'read_source' }, { source_id: 'beta' }, ids);
    expect(first).toMatchObject({ ok: false, class: 'closed', kind: 'connection_lost' });
    const later = await client.value.callTool({ name: 'read_source' }, { source_id: 'beta' }, { toolCallId: 'toolu_2', actionId: 'act-2' });
    expect(later).toMatchObject({ ok: false, class: 'precondition', kind: 'server_closed' });
    expect(client.value.exchanges()).toEqual([expect.objectContaining({ actionId: 'act-1', outcome: 'closed/connection_lost' })]);
  });

  test('a server that exits before answering initialize is spawn/exited_early', async () => {
    const launch = { command: [process.execPath, '-e', 'process.stderr.write("no config\\n"); process.exit(2)'], cwd: '/', env: {} };
    const client = await openHostClient({ key: 'early', launch, timeouts: FAST });
    expect(client).toMatchObject({ ok: false, class: 'spawn', kind: 'exited_early' });
    expect(!client.ok && client.issues?.join('\n')).toContain('no config');
  });
});
