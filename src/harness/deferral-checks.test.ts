import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { fail, ok } from '../contract/index.ts';
import { EXCERPT_SCENARIOS, excerptTask } from '../excerpt/index.ts';
import { fixedClock, type Event, type ReadRecorded } from '../ledger/index.ts';
import { checkDeferral } from './deferral-checks.ts';
import { createHost } from './host.ts';
import { loadScenario, scriptedModel } from './scenario.ts';

/**
 * checkDeferral alone, over the events and files of real deferred runs: what
 * checkRecord's earlier story checks would catch first (a flipped
 * handler_entered, a rewritten payload) is handed to it directly here, so each
 * of its own refusals is reached.
 */

async function recorded(name: string): Promise<{ events: Event[]; readFile: ReadRecorded; dir: string }> {
  const scenario = loadScenario(EXCERPT_SCENARIOS.folder, name);
  if (!scenario.ok) throw new Error(scenario.message);
  const dir = join(scratchDir('caplab-deferral-'), 'run');
  const outcome = await createHost({ cwd: '/', defer: [{ source: 'scenario defer', names: ['read_source'] }] }).run(excerptTask, scriptedModel(scenario.value), { runId: name, runDir: dir, clock: fixedClock(0) });
  if (!outcome.ok) throw new Error(outcome.message);
  const events = readFileSync(join(dir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Event);
  const readFile: ReadRecorded = (path) => {
    try {
      return ok(new Uint8Array(readFileSync(join(dir, path))));
    } catch {
      return fail('evidence', 'missing_file', path);
    }
  };
  return { events, readFile, dir };
}

/** The files of a record, one payload's JSON changed by `edit` (written back pretty, as the host writes it). */
function payloadEdited(readFile: ReadRecorded, path: string, edit: (payload: { messages: { content: unknown }[] }) => void): ReadRecorded {
  return (asked) => {
    const bytes = readFile(asked);
    if (asked !== path || !bytes.ok) return bytes;
    const payload = JSON.parse(new TextDecoder().decode(bytes.value));
    edit(payload);
    return ok(new TextEncoder().encode(JSON.stringify(payload, null, 2)));
  };
}

type Block = { type: string; tool_use_id?: string; content?: unknown[] };
const resultOf = (payload: { messages: { content: unknown }[] }, id: string): Block =>
  payload.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : [])).find((b) => b.type === 'tool_result' && b.tool_use_id === id)!;

const edited = (events: readonly Event[], pick: (e: Event) => boolean, edit: (e: Record<string, unknown>) => Record<string, unknown>): Event[] =>
  events.map((e) => (pick(e) ? (edit({ ...e }) as unknown as Event) : e));

test('the recorded deferred runs pass checkDeferral as written', async () => {
  for (const name of ['deferred-select', 'deferred-undisclosed', 'deferred-wrong-request', 'deferred-bad-search', 'deferred-denied']) {
    const { events, readFile } = await recorded(name);
    expect({ name, failure: checkDeferral(events, readFile) }).toEqual({ name, failure: undefined });
  }
});

test('a call to a deferred tool that entered its handler under a request that did not disclose it: undisclosed_call, naming the call', async () => {
  const { events, readFile } = await recorded('deferred-undisclosed');
  const forged = edited(events, (e) => e.type === 'call' && e.name === 'read_source', (e) => ({ ...e, handler_entered: true }));
  const failure = checkDeferral(forged, readFile);
  expect([failure?.kind, failure?.message]).toEqual(['undisclosed_call', 'call toolu_01 ran deferred tool read_source, which request req-01 did not disclose']);
});

test("a reference in the next payload that searching the producing payload again does not give: search_mismatch, naming the ToolSearch call", async () => {
  const { events, readFile } = await recorded('deferred-select');
  const changed = payloadEdited(readFile, 'requests/02-request.json', (payload) => void resultOf(payload, 'toolu_01').content!.push({ type: 'tool_reference', tool_name: 'create_card' }));
  // the request's recorded disclosure follows the changed bytes (create_card is no deferred tool: disclosure unchanged, bytes too)
  const failure = checkDeferral(events, changed);
  expect(failure?.kind).toBe('search_mismatch');
  expect(failure?.message).toBe('call toolu_01: the next payload references ["read_source","create_card"]; searching its producing payload again gives ["read_source"]');
});

test('a ToolSearch that answered but whose next payload holds no result for it: search_mismatch', async () => {
  const { events, readFile } = await recorded('deferred-select');
  const changed = payloadEdited(readFile, 'requests/02-request.json', (payload) => void (resultOf(payload, 'toolu_01').tool_use_id = 'toolu_99'));
  const forged = edited(events, (e) => e.type === 'request' && e.request_id === 'req-02', (e) => ({ ...e, disclosed_tools: [], visible_tool_bytes: (events.find((x) => x.type === 'request' && x.request_id === 'req-01') as { visible_tool_bytes: number }).visible_tool_bytes }));
  const failure = checkDeferral(forged, changed);
  expect(failure?.kind).toBe('search_mismatch');
  expect(failure?.message).toBe('call toolu_01: the next payload carries no tool_result for it');
});

test('a run_start that defers nothing, with a request recording deferral fields: disclosure_mismatch', async () => {
  const { events, readFile } = await recorded('deferred-select');
  const forged = edited(events, (e) => e.type === 'run_start', ({ defer: _d, ...start }) => start);
  const failure = checkDeferral(forged, readFile);
  expect([failure?.kind, failure?.message]).toEqual(['disclosure_mismatch', 'request req-01: records deferral fields, but run_start defers nothing']);
});
