import { describe, expect, test } from 'bun:test';
import { answerMessage, type LineAnswer, type ServeSession } from './serve-rpc.ts';
import { ServeTasks } from './serve-tasks.ts';
import { toolServerMethods, type ServedTool, type ToolServer } from './tool-server.ts';

const plain: ServedTool = { tool: { name: 'plain', inputSchema: { type: 'object' } }, call: () => ({ result: { content: [{ type: 'text', text: 'p' }] } }) };
const slow: ServedTool = {
  tool: { name: 'slow', inputSchema: { type: 'object' } },
  since: '2025-11-25',
  task: { support: 'optional', workMs: (args) => Number(args?.['ms'] ?? 0) },
  call: (args) => ({ result: { content: [{ type: 'text', text: 'done' }], ...(args?.['fail'] ? { isError: true } : {}) } }),
};
const SERVER: ToolServer = { info: { name: 't', version: '1' }, tools: [plain, slow] };

/** One session against the methods: each request answered (a deferred one awaited). */
function client(tasks = new ServeTasks()) {
  const methods = toolServerMethods(SERVER, 'both', tasks);
  const session: ServeSession = {};
  let id = 0;
  const ask = async (method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
    const answered: LineAnswer = answerMessage({ jsonrpc: '2.0', id: ++id, method, params }, methods, session);
    const final = answered.deferred ? await answered.deferred : answered;
    return final.answer!;
  };
  const init = (version: string) => ask('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } });
  return { ask, init, session, tasks };
}

const names = (answer: Record<string, unknown>) => ((answer['result'] as { tools: { name: string }[] }).tools).map((t) => t.name);

describe('caplab serve tasks (2025-11-25)', () => {
  test('a 2025-06-18 session sees exactly the tools it always saw: no count_words-like tool, no tasks, a task param ignored', async () => {
    const c = client();
    const init = await c.init('2025-06-18');
    expect(init['result']).toMatchObject({ protocolVersion: '2025-06-18', capabilities: { tools: {} } });
    expect((init['result'] as { capabilities: Record<string, unknown> }).capabilities).not.toHaveProperty('tasks');
    expect(names(await c.ask('tools/list'))).toEqual(['plain']);
    expect(await c.ask('tools/call', { name: 'slow' })).toMatchObject({ error: { code: -32602 } });
    expect(await c.ask('tools/call', { name: 'plain', task: {} })).toMatchObject({ result: { content: [{ text: 'p' }] } });
    expect(await c.ask('tasks/get', { taskId: 'x' })).toMatchObject({ error: { code: -32601 } });
  });

  test('offered 2025-11-25: tasks declared (no list), the tool listed with execution, a task created working, its result deferred until completed', async () => {
    const c = client();
    const init = await c.init('2025-11-25');
    expect(init['result']).toMatchObject({ protocolVersion: '2025-11-25', capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } } });
    const listed = (await c.ask('tools/list'))['result'] as { tools: Record<string, unknown>[] };
    expect(listed.tools.map((t) => [t['name'], t['execution']])).toEqual([['plain', undefined], ['slow', { taskSupport: 'optional' }]]);
    const created = (await c.ask('tools/call', { name: 'slow', arguments: { ms: 30 }, task: { ttl: 5_000 } }))['result'] as { task: Record<string, unknown> };
    expect(created.task).toMatchObject({ status: 'working', ttl: 5_000, pollInterval: 100 });
    const taskId = created.task['taskId'] as string;
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await c.ask('tasks/get', { taskId })).toMatchObject({ result: { taskId, status: 'working' } });
    const result = await c.ask('tasks/result', { taskId });
    expect(result['result']).toEqual({ content: [{ type: 'text', text: 'done' }], _meta: { 'io.modelcontextprotocol/related-task': { taskId } } });
    expect(await c.ask('tasks/get', { taskId })).toMatchObject({ result: { status: 'completed' } });
    expect(await c.ask('tasks/cancel', { taskId })).toMatchObject({ error: { code: -32602 } });
    expect(await c.ask('tasks/list')).toMatchObject({ error: { code: -32601 } });
    c.tasks.close();
  });

  test('an isError result ends the task failed; a cancelled task has no result; an unknown id is -32602', async () => {
    const c = client();
    await c.init('2025-11-25');
    const failed = ((await c.ask('tools/call', { name: 'slow', arguments: { fail: true }, task: {} }))['result'] as { task: { taskId: string } }).task.taskId;
    await c.ask('tasks/result', { taskId: failed });
    expect(await c.ask('tasks/get', { taskId: failed })).toMatchObject({ result: { status: 'failed' } });
    const stopped = ((await c.ask('tools/call', { name: 'slow', arguments: { ms: 60_000 }, task: {} }))['result'] as { task: { taskId: string } }).task.taskId;
    const waiting = c.ask('tasks/result', { taskId: stopped });
    expect(await c.ask('tasks/cancel', { taskId: stopped })).toMatchObject({ result: { status: 'cancelled' } });
    expect(await waiting).toMatchObject({ error: { code: -32602, message: expect.stringContaining('cancelled') } });
    expect(await c.ask('tasks/get', { taskId: 'nope' })).toMatchObject({ error: { code: -32602 } });
    expect(await c.ask('tools/call', { name: 'plain', task: {} })).toMatchObject({ error: { code: -32602, message: expect.stringContaining('does not run as a task') } });
    c.tasks.close();
  });

  test('at most serveTasks are kept: one more is -32603 until one expires at its ttl', async () => {
    let now = 0;
    const c = client(new ServeTasks(() => now, 2));
    await c.init('2025-11-25');
    const start = () => c.ask('tools/call', { name: 'slow', arguments: { ms: 60_000 }, task: { ttl: 1_000 } });
    expect((await start())['result']).toBeDefined();
    expect((await start())['result']).toBeDefined();
    expect(await start()).toMatchObject({ error: { code: -32603, message: expect.stringContaining('serveTasks') } });
    now = 1_001;
    expect((await start())['result']).toBeDefined();
    c.tasks.close();
  });
});
