import { describe, expect, test } from 'bun:test';
import { decodeLine, decodeText, encodeLine, idKey } from './messages.ts';
import { rawFacts } from './raw-json.ts';

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

describe('what only the text shows', () => {
  test.each(['1.0', '1e0', '1E0', '10e-1', '1.0000000000000001', '-0'])('a response id written %s is unknown_id, not id 1 (or 0); its error twin too', (written) => {
    expect(decodeLine(line(`{"jsonrpc":"2.0","id":${written},"result":{}}`))).toMatchObject({ ok: false, class: 'protocol', kind: 'unknown_id', basis: 'spec MUST' });
    expect(decodeText(`{"jsonrpc":"2.0","id":${written},"error":{"code":1,"message":"x"}}`)).toMatchObject({ ok: false, kind: 'unknown_id' });
  });

  test('integers as caplab writes them still match, with any whitespace around them; a number elsewhere is no id', () => {
    expect(decodeText('{"jsonrpc":"2.0","id":1,"result":{}}')).toMatchObject({ ok: true, value: { message: { id: 1 } } });
    expect(decodeText('{"jsonrpc":"2.0","id" : \t-12 ,"result":{"id":1.0,"n":[{"id":2e0}]}}')).toMatchObject({ ok: true, value: { message: { id: -12 } } });
    expect(decodeText('{"result":{"id":1.0},"jsonrpc":"2.0","id":3}')).toMatchObject({ ok: true, value: { message: { id: 3 } } });
  });

  test.each([
    ['at the top', '{"jsonrpc":"2.0","id":1,"id":2,"result":{}}', 'id'],
    ['in the result (a reader keeping the last sees success)', '{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true,"isError":false}}', 'isError'],
    ['deep in an array of objects', '{"jsonrpc":"2.0","id":1,"result":{"a":[{"k":1},{"k":1,"j":[{"x":{"y":1,"y":2}}]}]}}', 'y'],
    ['written with an escape', '{"jsonrpc":"2.0","id":1,"result":{"a":1,"\\u0061":2}}', 'a'],
    ['in a server request', '{"jsonrpc":"2.0","id":"p","method":"ping","method":"sampling/createMessage"}', 'method'],
  ])('a key repeated %s is duplicate_key [caplab host rule]', (_where, text, key) => {
    expect(decodeText(text)).toMatchObject({ ok: false, class: 'protocol', kind: 'duplicate_key', basis: 'caplab host rule' });
    expect(rawFacts(text).duplicateKey).toBe(key);
  });

  test('the same key in sibling or nested objects, and keys inside strings, are no repeat', () => {
    const text = '{"jsonrpc":"2.0","id":1,"result":{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"t":"\\"a\\":1,\\"a\\":2 \\\\","u":"\\\\"}}';
    expect(JSON.parse(text)).toBeTruthy();
    expect(decodeText(text)).toMatchObject({ ok: true });
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
