import { expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '../harness/index.ts';
import { replacingTool } from '../harness/testing/replace-tool.ts';
import type { Mode } from '../excerpt/testing/misbehave.ts';
import { FAST } from '../mcp/client/testing/timeouts.ts';
import { misbehaveLaunch } from '../excerpt/testing/misbehave-launch.ts';
import { parseRunFlags, runCommand } from './run-command.ts';
import { testIo } from './test-io.ts';
import { excerptTaskOverMcp } from '../excerpt/index.ts';
import { excerptCli } from './testing/excerpt-cli.ts';

/** The demo's task with read_source over a misbehaving server. */
const over = (mode: Mode): Task => excerptTaskOverMcp({ envSource: {}, launch: misbehaveLaunch(mode), timeouts: { ...FAST, callMs: 300 } });

/** The same, with the pipeline's own deadline for read_source (not the client's) ending the call. */
const pipelineDeadline = (mode: Mode): Task =>
  replacingTool('read_source', (t) => ({ ...t, attributes: { ...t.attributes, timeoutMs: 300 } }), excerptTaskOverMcp({ envSource: {}, launch: misbehaveLaunch(mode), timeouts: FAST }));

async function demo(overMcp: Task, json: boolean) {
  const cwd = mkdtempSync(join(tmpdir(), 'caplab-mcpfail-'));
  try {
    const io = testIo(cwd);
    const parsed = parseRunFlags([...(json ? ['--json'] : []), '--run-id', 'f'], 'demo', excerptCli());
    if (!parsed.ok) throw new Error(parsed.message);
    const flags = parsed.value;
    const code = await runCommand(flags, io, excerptCli(overMcp));
    const ledger = readFileSync(join(cwd, 'caplab-runs/f/ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    return { code, out: io.out(), calls: ledger.filter((e) => e.type === 'call') };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

test.each([
  ['is_error', over('is_error'), 'business/tool_error', true],
  ['mismatch', over('mismatch'), 'evidence/source_mismatch', false],
  ['hang (client deadline)', over('hang'), 'timeout/deadline', false],
  ['hang (pipeline deadline)', pipelineDeadline('hang'), 'timeout/handler_timeout', false],
] as const)('a failed MCP call (%s) keeps transport, JSON-RPC id and exchange in --json, the ledger and the human report', async (_name, provider, failure, isError) => {
  const { code, out, calls } = await demo(provider, true);
  expect(code).not.toBe(0);
  const doc = JSON.parse(out);
  const call = doc.calls[0];
  expect(`${call.result.class}/${call.result.kind}`).toBe(failure);
  expect(call.via).toBe('mcp');
  expect(call.jsonrpc_id).toEqual(expect.any(Number));
  // The exchange names the server by the key the run gives it, not the serverInfo.name (`misbehave-…`) it reports.
  const exchange = { transport: 'mcp-stdio', server: 'caplab-fixture', method: 'tools/call', jsonrpcId: call.jsonrpc_id, requestBytes: expect.any(Number), isError };
  expect(call.protocol).toMatchObject(exchange);
  expect(doc.mcp_calls).toBeGreaterThanOrEqual(1);

  const event = calls[0];
  expect(`${event.outcome.class}/${event.outcome.kind}`).toBe(failure);
  expect([event.tool_call_id, event.action_id, event.jsonrpc_id, event.via]).toEqual([call.tool_call_id, call.action_id, call.jsonrpc_id, 'mcp']);
  expect(event.protocol).toEqual(call.protocol);

  const human = await demo(provider, false);
  expect(human.out).toMatch(new RegExp(`${call.tool_call_id} ${call.action_id} read_source .*\\(mcp jsonrpc#${call.jsonrpc_id}\\)`));
  expect(human.out).not.toMatch(/read_source .*\(local\)/);
});
