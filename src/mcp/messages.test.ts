import { describe, expect, test } from 'bun:test';
import { decodeLine, encodeLine, idKey } from './messages.ts';

const line = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('decodeLine', () => {
  test('accepts a result response and keeps the id type', () => {
    const decoded = decodeLine(line('{"jsonrpc":"2.0","id":7,"result":{}}'));
    expect(decoded).toEqual({ ok: true, value: { type: 'result', message: { jsonrpc: '2.0', id: 7, result: {} } } });
    const stringId = decodeLine(line('{"jsonrpc":"2.0","id":"7","result":{}}'));
    expect(stringId.ok && stringId.value.message).toMatchObject({ id: '7' });
  });

  test('classifies error responses, server requests and notifications', () => {
    expect(decodeLine(line('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}'))).toMatchObject({
      ok: true,
      value: { type: 'error' },
    });
    expect(decodeLine(line('{"jsonrpc":"2.0","id":"p","method":"ping"}'))).toMatchObject({ ok: true, value: { type: 'request' } });
    expect(decodeLine(line('{"jsonrpc":"2.0","method":"notifications/message","params":{}}'))).toMatchObject({
      ok: true,
      value: { type: 'notification' },
    });
  });

  test('invalid UTF-8 is encoding, never replaced', () => {
    const bad = Uint8Array.of(...line('{"jsonrpc":"2.0","id":1,"result":{"t":"'), 0xe8, 0x8c, ...line('"}}'));
    expect(decodeLine(bad)).toMatchObject({ ok: false, class: 'protocol', kind: 'encoding' });
  });

  test.each([
    ['a banner', 'Server starting…'],
    ['a blank line', ''],
    ['a CR before the newline', '{"jsonrpc":"2.0","id":1,"result":{}}\r'],
    ['leading padding', ' {"jsonrpc":"2.0","id":1,"result":{}}'],
    ['a BOM', '\uFEFF{"jsonrpc":"2.0","id":1,"result":{}}'],
    ['two objects on one line', '{"jsonrpc":"2.0","id":1,"result":{}}{"jsonrpc":"2.0","id":2,"result":{}}'],
  ])('%s is framing', (_name, text) => {
    expect(decodeLine(line(text))).toMatchObject({ ok: false, class: 'protocol', kind: 'framing' });
  });

  test.each([
    ['a batch', '[{"jsonrpc":"2.0","id":1,"result":{}}]'],
    ['a bare number', '42'],
    ['a wrong version', '{"jsonrpc":"1.0","id":1,"result":{}}'],
    ['a null id on a result', '{"jsonrpc":"2.0","id":null,"result":{}}'],
    ['a fractional id', '{"jsonrpc":"2.0","id":1.5,"result":{}}'],
    ['an extra member', '{"jsonrpc":"2.0","id":1,"result":{},"extra":true}'],
    ['result and error together', '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}'],
    ['a non-object result', '{"jsonrpc":"2.0","id":1,"result":"done"}'],
  ])('%s is not_jsonrpc', (_name, text) => {
    expect(decodeLine(line(text))).toMatchObject({ ok: false, class: 'protocol', kind: 'not_jsonrpc' });
  });
});

describe('encodeLine and idKey', () => {
  test('one line, no raw newline inside, newline-terminated', () => {
    const encoded = new TextDecoder().decode(encodeLine({ text: 'a\nb', cjk: '茶' }));
    expect(encoded).toBe('{"text":"a\\nb","cjk":"茶"}\n');
    expect(encoded.indexOf('\n')).toBe(encoded.length - 1);
  });

  test('ids that are equal in value but not in JSON type get different keys', () => {
    expect(idKey(1)).not.toBe(idKey('1'));
    expect(idKey(1)).toBe(idKey(1));
  });
});
