import { expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { EXCERPT_SCENARIOS, excerptTask, excerptTaskOverMcp, fixtureLaunch } from '../excerpt/index.ts';
import { fixedClock } from '../ledger/index.ts';
import type { RuntimeTool } from '../pipeline/index.ts';
import { createHost, type HostPermissions } from './host.ts';
import { loadScenario, scriptedModel } from './scenario.ts';
import type { Task } from './task.ts';
import { replacingTool } from './testing/replace-tool.ts';

/**
 * Issue 25's acceptance: a deferred read_source's handler — local, and over
 * MCP the client's call and the server's own tools/call — is never entered
 * before a request whose payload holds a ToolSearch reference to it. Each
 * entry is counted where it happens, and its producing payload is read here,
 * by this file's own reading of the Messages API shape (not toolDisclosure's).
 */

const MAIN = new URL('../main.ts', import.meta.url).pathname;
const LOGGING = new URL('./testing/logging-server.ts', import.meta.url).pathname;
const utf8 = new TextDecoder();

type Block = { type?: string; id?: string; name?: string; tool_use_id?: string; is_error?: boolean; content?: unknown };

/** Whether a payload holds a non-error tool_result with a tool_reference to `name`, answering a ToolSearch tool_use of an earlier assistant message. */
function referencesIn(payload: Uint8Array, name: string): boolean {
  const messages = JSON.parse(utf8.decode(payload)).messages as { role: string; content: unknown }[];
  const searches = new Set<string>();
  for (const message of messages) {
    const blocks = (Array.isArray(message.content) ? message.content : []) as Block[];
    if (message.role === 'user') {
      for (const b of blocks) {
        if (b.type !== 'tool_result' || !searches.has(b.tool_use_id ?? '') || b.is_error === true || !Array.isArray(b.content)) continue;
        if ((b.content as Block[] & { tool_name?: string }[]).some((item) => item.type === 'tool_reference' && (item as { tool_name?: string }).tool_name === name)) return true;
      }
    }
    if (message.role === 'assistant') for (const b of blocks) if (b.type === 'tool_use' && b.name === 'ToolSearch') searches.add(b.id!);
  }
  return false;
}

/** The task with read_source's handler counting its entries, each with whether its producing payload referenced it. */
function counting(task: Task): { task: Task; entries: boolean[] } {
  const entries: boolean[] = [];
  const wrap = (tool: RuntimeTool): RuntimeTool => ({ ...tool, handler: (input, context) => (entries.push(referencesIn(context.request.payload, 'read_source')), tool.handler(input, context)) });
  return { task: replacingTool('read_source', wrap, task), entries };
}

/** Each scenario, the reads it enters, and what every read it does not enter is refused as. */
const EXPECTED: readonly [string, number, string][] = [
  ['deferred-search', 2, ''],
  ['deferred-select', 2, ''],
  ['deferred-undisclosed', 0, 'precondition/tool_not_disclosed'],
  ['deferred-wrong-request', 0, 'precondition/tool_not_disclosed'],
  ['deferred-bad-search', 0, 'precondition/tool_not_disclosed'],
  ['deferred-denied', 0, 'permission_denied/rule'],
];

const refusedAs = (reads: readonly { handler_entered: boolean; outcome: { class?: string; kind?: string } }[]): string[] => reads.filter((e) => !e.handler_entered).map((e) => `${e.outcome.class}/${e.outcome.kind}`);

async function deferredRun(name: string, task: Task) {
  const scenario = loadScenario(EXCERPT_SCENARIOS.folder, name);
  if (!scenario.ok) throw new Error(scenario.message);
  const dir = scratchDir('caplab-deferred-');
  const counted = counting(task);
  const given = 'permissions' in scenario.value ? scenario.value.permissions : undefined;
  const permissions: HostPermissions | undefined = given ? { source: 'scenario', ...(given.deny ? { deny: given.deny } : {}), ...(given.allow ? { allow: given.allow } : {}), ...(given.ask ? { ask: given.ask } : {}) } : undefined;
  const host = createHost({ cwd: dir, defer: [{ source: 'scenario defer', names: ['read_source'] }], ...(permissions ? { permissions } : {}) });
  const outcome = await host.run(counted.task, scriptedModel(scenario.value), { runId: name, runDir: join(dir, 'run'), clock: fixedClock(0) });
  if (!outcome.ok) throw new Error(outcome.message);
  const events = readFileSync(join(outcome.value.runDir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  return { outcome: outcome.value, entries: counted.entries, events, dir };
}

test.each(EXPECTED)('local %s: read_source entered %i times, each under a payload that referenced it', async (name, times, refused) => {
  const { entries, events } = await deferredRun(name, excerptTask);
  expect(entries).toEqual(Array(times).fill(true));
  const reads = events.filter((e) => e.type === 'call' && e.name === 'read_source');
  expect(reads.filter((e) => e.handler_entered).length).toBe(times);
  if (times === 0) expect(reads.length).toBeGreaterThan(0);
  expect(new Set(refusedAs(reads))).toEqual(new Set(refused ? [refused] : []));
});

test.each(EXPECTED)("over MCP %s: the client's read_source and the server's tools/call each happen %i times, never before a referencing payload", async (name, times, refused) => {
  const log = join(scratchDir('caplab-deferred-log-'), 'calls.jsonl');
  const served = fixtureLaunch({ devEntry: [MAIN, 'serve'], envSource: {} });
  const launch = { ...served, command: [process.execPath, LOGGING, log, ...served.command] };
  const { entries, events } = await deferredRun(name, excerptTaskOverMcp({ envSource: {}, launch }));
  expect(entries).toEqual(Array(times).fill(true));
  const served_calls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
  expect(served_calls.map((m) => m.params.name)).toEqual(Array(times).fill('read_source'));
  // the record agrees: only entered reads crossed the wire, each with its tools/call exchange
  const reads = events.filter((e) => e.type === 'call' && e.name === 'read_source');
  expect(reads.filter((e) => e.protocol?.method === 'tools/call').length).toBe(times);
  for (const read of reads.filter((e) => !e.handler_entered)) expect([read.protocol, read.jsonrpc_id]).toEqual([null, null]);
  expect(new Set(refusedAs(reads))).toEqual(new Set(refused ? [refused] : []));
});
