import { describe, expect, test } from 'bun:test';
import { LIMITS } from '../../contract/index.ts';
import { driveServe } from '../../excerpt/testing/drive-serve.ts';

const request = (id: number | string, method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const LIST = request(99, 'tools/list');
/** stderr lines other than the ready line and the exit line. */
const extraNotes = (notes: string[]) => notes.filter((note) => !note.includes(' ready (MCP ') && !note.includes('stdin closed, exiting'));

describe('caplab serve: every stdin line gets an answer or one stderr line', () => {
  test('a line that is not JSON gets -32700 with id null, and the session goes on', async () => {
    const driven = await driveServe(`not json\n${LIST}\n`);
    expect(driven.code).toBe(0);
    expect(driven.answers[0]).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
    expect(driven.answers[1]).toMatchObject({ id: 99, result: { tools: [{ name: 'read_source' }] } });
  });

  test('invalid UTF-8 is -32700 too', async () => {
    const bad = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","x":"'), Buffer.from([0xe8, 0x8c]), Buffer.from('"}\n')]);
    const driven = await driveServe(bad);
    expect(driven.answers).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } }]);
  });

  test.each([
    ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', null],
    ['a bare number', '42', null],
    ['a wrong version', '{"jsonrpc":"1.0","id":1,"method":"ping"}', 1],
    ['a non-string method', '{"jsonrpc":"2.0","id":2,"method":7}', 2],
    ['a fractional id', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null],
    ['a null id', '{"jsonrpc":"2.0","id":null,"method":"ping"}', null],
    ['params that are not an object', '{"jsonrpc":"2.0","id":3,"method":"tools/list","params":[1]}', 3],
    ['no method and no result', '{"jsonrpc":"2.0","id":4}', 4],
    ['an extra member', '{"jsonrpc":"2.0","id":5,"method":"ping","extra":1}', 5],
  ])('%s is -32600 (Invalid Request)', async (_name, line, id) => {
    const driven = await driveServe(`${line}\n`);
    expect(driven.answers).toEqual([{ jsonrpc: '2.0', id, error: { code: -32600, message: expect.any(String) } }]);
  });

  test.each([
    ['arguments as a string and no tool name', { arguments: 'alpha' }],
    ['no tool name', { arguments: { source_id: 'alpha' } }],
    ['arguments as an array', { name: 'read_source', arguments: ['alpha'] }],
    ['arguments null', { name: 'read_source', arguments: null }],
  ])('tools/call with %s is -32602 with a short one-line message', async (_name, params) => {
    const driven = await driveServe(`${request(1, 'tools/call', params)}\n`);
    expect(driven.answers).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.any(String) } }]);
    const message = (driven.answers[0]!['error'] as { message: string }).message;
    expect(message).not.toContain('\n');
    expect(message.length).toBeLessThan(160);
  });

  test('initialize without clientInfo is -32602; an unknown method is -32601', async () => {
    const driven = await driveServe(`${request(1, 'initialize', { protocolVersion: '2025-06-18' })}\n${request(2, 'resources/list')}\n`);
    expect(driven.answers).toMatchObject([{ id: 1, error: { code: -32602 } }, { id: 2, error: { code: -32601 } }]);
  });

  test('contract-failing tool arguments stay an isError tool result', async () => {
    const driven = await driveServe(`${request(1, 'tools/call', { name: 'read_source', arguments: { source_id: 'gamma' } })}\n`);
    expect(driven.answers).toMatchObject([{ id: 1, result: { isError: true } }]);
  });

  test('repeated read_source calls: each line is the full answer under its own id, arguments checked every time', async () => {
    const call = (id: number | string, args: unknown) => request(id, 'tools/call', { name: 'read_source', arguments: args });
    const calls = [
      call(1, { source_id: 'alpha' }),
      call('1', { source_id: 'alpha' }),
      call(2, { source_id: 'gamma' }),
      call('x"\u2028', { source_id: 'alpha', extra: true }),
      call(3, { source_id: 'beta' }),
      call(4, { source_id: 'alpha' }),
      call(5, {}),
    ];
    const driven = await driveServe(`${calls.join('\n')}\n`);
    const fresh = await Promise.all(calls.map(async (line) => (await driveServe(`${line}\n`)).lines[0]));
    // Byte for byte what a server without the cache writes: JSON.stringify of the whole answer.
    expect(driven.lines).toEqual(fresh as string[]);
    expect(driven.lines).toEqual(driven.answers.map((answer) => JSON.stringify(answer)));
    expect(driven.answers.map((answer) => [answer['id'], (answer['result'] as { isError?: boolean }).isError ?? false])).toEqual([
      [1, false], ['1', false], [2, true], ['x"\u2028', true], [3, false], [4, false], [5, true],
    ]);
    const ids = driven.answers.map((answer) => (answer['result'] as { structuredContent?: { source_id: string } }).structuredContent?.source_id);
    expect(ids).toEqual(['alpha', 'alpha', undefined, undefined, 'beta', 'alpha', undefined]);
  });

  test('a response or an unknown notification from the client gets one stderr line; a known notification nothing', async () => {
    const lines = [
      '{"jsonrpc":"2.0","id":7,"result":{}}',
      '{"jsonrpc":"2.0","method":"notifications/whatever"}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    ];
    const driven = await driveServe(`${lines.join('\n')}\n`);
    expect(driven.answers).toEqual([]);
    expect(extraNotes(driven.notes)).toHaveLength(2);
  });

  test('ten bad lines print at most one stderr line each, none of them a dump', async () => {
    const bad = ['nope', '[1]', '{"jsonrpc":"2.0","id":1}', request(2, 'tools/call', { arguments: 'alpha' }), '{"jsonrpc":"2.0","id":7,"result":{}}'];
    const driven = await driveServe(`${[...bad, ...bad].join('\n')}\n`);
    expect(extraNotes(driven.notes).length).toBeLessThanOrEqual(10);
    expect(driven.answers).toHaveLength(8);
  });

  test('an over-size line ends the session: one stderr line, exit 3, later lines unanswered', async () => {
    const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(LIMITS.mcpLineBytes)}"}}`;
    const driven = await driveServe(`${LIST}\n${big}\n${LIST}\n`);
    expect(driven.code).toBe(3);
    expect(driven.answers).toHaveLength(1);
    expect(extraNotes(driven.notes)).toEqual([expect.stringContaining(`${LIMITS.mcpLineBytes} bytes`)]);
  });

  test('a line cut off by EOF gets one stderr line', async () => {
    const driven = await driveServe(`${LIST}\n{"jsonrpc":"2.0","id":2,"meth`);
    expect(driven.answers).toHaveLength(1);
    expect(extraNotes(driven.notes)).toEqual([expect.stringContaining('unfinished line')]);
  });
});
