import { expect, test } from 'bun:test';
import { DEFAULT_REQUEST_MS, DEFAULT_STARTUP_MS, serverFlags } from './server-flags.ts';

test('without flags: no config, nothing required, the default waits', () => {
  expect(serverFlags({})).toEqual({ ok: true, value: { requireServers: [], startupTimeoutMs: DEFAULT_STARTUP_MS, timeoutMs: DEFAULT_REQUEST_MS } });
});

test('--require-server keys are kept once each; the waits as given', () => {
  const read = serverFlags({ 'mcp-config': 'a.json', 'require-server': ['x', 'y', 'x'], 'startup-timeout-ms': '500', 'timeout-ms': '20' });
  expect(read).toEqual({ ok: true, value: { mcpConfig: 'a.json', requireServers: ['x', 'y'], startupTimeoutMs: 500, timeoutMs: 20 } });
});

test.each([
  [{ 'mcp-config': '' }, '--mcp-config needs a file'],
  [{ 'require-server': ['x'] }, '--require-server names a server of --mcp-config'],
  [{ 'mcp-config': 'a.json', 'require-server': [''] }, '--require-server needs a server key'],
  [{ 'startup-timeout-ms': '0' }, '--startup-timeout-ms needs a positive whole number'],
  [{ 'timeout-ms': '1.5' }, '--timeout-ms needs a positive whole number'],
  [{ 'timeout-ms': '99999999999999999999' }, '--timeout-ms needs a positive whole number'],
])('%j is invalid_arguments/bad_flag: %s', (values, message) => {
  const read = serverFlags(values);
  expect(read.ok ? undefined : [read.kind, read.message.startsWith(message)]).toEqual(['bad_flag', true]);
});
