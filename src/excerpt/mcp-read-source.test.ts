import { afterEach, describe, expect, test } from 'bun:test';
import { sha256Hex } from '../contract/index.ts';
import { MCP_ADAPTER_VERSION, MCP_GAPS, openStrictClient, type StrictClient } from '../mcp/index.ts';
import { callContext } from '../mcp/client/testing/context.ts';
import type { Mode } from './testing/misbehave.ts';
import { FAST } from '../mcp/client/testing/timeouts.ts';
import { isRunning } from '../mcp/wire/testing/processes.ts';
import { misbehaveLaunch } from './testing/misbehave-launch.ts';
import { checkAgainstSnapshot, mcpReadSource, READ_SOURCE_EXPECTED } from './mcp-read-source.ts';
import { fixtureSnapshot } from './sources.ts';

const snapshot = fixtureSnapshot();
const alpha = snapshot.sources[0]!;
const opened: StrictClient[] = [];
afterEach(async () => {
  for (const client of opened.splice(0)) {
    await client.close();
    expect(isRunning(client.pid)).toBe(false);
  }
});

async function toolOver(mode: Mode) {
  const client = await openStrictClient({ key: 'caplab-fixture', launch: misbehaveLaunch(mode), tools: [READ_SOURCE_EXPECTED], timeouts: FAST, instanceId: 'inst-1' });
  if (!client.ok) throw new Error(client.message);
  opened.push(client.value);
  return mcpReadSource(client.value, snapshot);
}

describe('checkAgainstSnapshot (host evidence, pure)', () => {
  const honest = { source_id: 'alpha' as const, text: alpha.text, sha256: alpha.sha256, bytes: alpha.byteLength, snapshot: snapshot.id };

  test('accepts the snapshot bytes with host-computed hash', () => {
    expect(checkAgainstSnapshot(snapshot, 'alpha', honest)).toEqual({ ok: true, value: alpha });
  });

  test('the snapshot text itself still has its claimed hash, length and snapshot id compared (no re-hash does not mean no check)', () => {
    const beta = snapshot.sources[1]!;
    // Right text, each claim wrong on its own: the host's own figures are the snapshot's, computed at snapshot time.
    const lies = [
      { ...honest, sha256: beta.sha256 },
      { ...honest, sha256: alpha.sha256.toUpperCase() },
      { ...honest, bytes: alpha.byteLength + 1 },
      { ...honest, bytes: alpha.text.length === alpha.byteLength ? alpha.byteLength - 1 : alpha.text.length },
    ];
    for (const lie of lies) {
      const refused = checkAgainstSnapshot(snapshot, 'alpha', lie);
      expect(refused).toMatchObject({ ok: false, class: 'evidence', kind: 'hash_mismatch' });
      expect(refused.ok ? '' : refused.message).toContain(`host computed ${alpha.sha256} / ${alpha.byteLength}`);
    }
    expect(checkAgainstSnapshot(snapshot, 'alpha', { ...honest, snapshot: `${snapshot.id}0` })).toMatchObject({ kind: 'source_mismatch' });
  });

  test('a text other than the snapshot is hashed as received: honest claims about it are still a source_mismatch', () => {
    const text = alpha.text.replace(/.$/su, '?');
    const refused = checkAgainstSnapshot(snapshot, 'alpha', { ...honest, text, sha256: sha256Hex(text), bytes: new TextEncoder().encode(text).byteLength });
    expect(refused).toMatchObject({ ok: false, kind: 'source_mismatch' });
    expect(refused.ok ? '' : refused.message).toContain(sha256Hex(text));
  });

  test('another source than asked → source_mismatch', () => {
    const beta = snapshot.sources[1]!;
    const answer = { ...honest, source_id: 'beta' as const, text: beta.text, sha256: beta.sha256, bytes: beta.byteLength };
    expect(checkAgainstSnapshot(snapshot, 'alpha', answer)).toMatchObject({ class: 'evidence', kind: 'source_mismatch' });
  });

  test('a consistent but different text → source_mismatch; a wrong claimed hash or length → hash_mismatch', () => {
    const text = `${alpha.text} `;
    const altered = { ...honest, text, sha256: sha256Hex(text), bytes: alpha.byteLength + 1 };
    expect(checkAgainstSnapshot(snapshot, 'alpha', altered)).toMatchObject({ kind: 'source_mismatch' });
    expect(checkAgainstSnapshot(snapshot, 'alpha', { ...honest, sha256: '0'.repeat(64) })).toMatchObject({ kind: 'hash_mismatch' });
    expect(checkAgainstSnapshot(snapshot, 'alpha', { ...honest, bytes: 1 })).toMatchObject({ kind: 'hash_mismatch' });
  });

  test('another snapshot id → source_mismatch', () => {
    expect(checkAgainstSnapshot(snapshot, 'alpha', { ...honest, snapshot: 'snap-other' })).toMatchObject({ kind: 'source_mismatch' });
  });
});

describe('mcpReadSource over misbehaving servers', () => {
  test('binding carries the server identity, the adapter version and the gaps', async () => {
    const tool = await toolOver('ok');
    expect(tool.binding.implementation).toEqual({ kind: 'mcp', version: MCP_ADAPTER_VERSION });
    expect(tool.binding.server).toMatchObject({ name: 'misbehave-ok', protocolVersion: '2025-06-18', instanceId: 'inst-1' });
    expect(tool.binding.gaps).toEqual(MCP_GAPS);
    expect(tool.attributes.fromMcp).toBe(true);
    expect(Object.isFrozen(tool.binding.server)).toBe(true);
  });

  test.each([
    ['mismatch', 'evidence', 'source_mismatch'],
    ['lying_hash', 'evidence', 'hash_mismatch'],
    ['is_error', 'business', 'tool_error'],
  ] as const)('%s → %s/%s', async (mode, errorClass, kind) => {
    const tool = await toolOver(mode);
    const result = await tool.handler({ source_id: 'alpha' }, callContext('toolu_a', 'act-a'));
    expect(result).toMatchObject({ ok: false, class: errorClass, kind });
  });

  test('an honest answer: the object version is the host hash of the bytes received', async () => {
    const tool = await toolOver('ok');
    const result = await tool.handler({ source_id: 'alpha' }, callContext('toolu_a', 'act-a'));
    expect(result).toMatchObject({ ok: true, value: { content: [{ type: 'text', text: alpha.text }], objectVersion: sha256Hex(new TextEncoder().encode(alpha.text)) } });
  });
});
