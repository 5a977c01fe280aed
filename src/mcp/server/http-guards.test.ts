import { describe, expect, test } from 'bun:test';
import { allowedOrigins, bearerCheck, hostName, isOrigin, originProblem } from './http-guards.ts';

const none = allowedOrigins([]);

describe('Host and Origin', () => {
  test.each([
    ['localhost', 'localhost'], ['LOCALHOST:80', 'localhost'], ['127.0.0.1:65535', '127.0.0.1'], ['[::1]:3000', '[::1]'], ['[::1]', '[::1]'],
    ['a b', undefined], ['evil@127.0.0.1', undefined], ['127.0.0.1/x', undefined], ['', undefined], ['[::1', undefined],
  ])('hostName(%p) is %p', (header, name) => {
    expect(hostName(header)).toBe(name);
  });

  test('a Host header is required; a loopback-looking suffix is not loopback', () => {
    expect(originProblem(null, null, none)).toContain('Host header');
    expect(originProblem('localhost.evil.example', null, none)).toContain('not loopback');
    expect(originProblem('127.0.0.1.evil.example:1', null, none)).toContain('not loopback');
    expect(originProblem('127.0.0.1:8080', null, none)).toBeUndefined();
  });

  test('an Origin must be a loopback http(s) origin or one allowed exactly', () => {
    const allowed = allowedOrigins(['https://app.example:8443/']);
    for (const origin of ['http://localhost', 'https://[::1]:1', 'http://127.0.0.1:9']) expect(originProblem('localhost', origin, none)).toBeUndefined();
    for (const origin of ['null', 'file://', 'ws://localhost', 'http://evil.example', 'not a url']) expect(originProblem('localhost', origin, none)).toContain('Origin');
    expect(originProblem('app.example', 'https://app.example:8443', allowed)).toBeUndefined();
    expect(originProblem('app.example', 'https://app.example', allowed)).toContain('Origin');
  });

  test.each([['https://a.example', true], ['http://a.example:8080/', true], ['https://a.example/x', false], ['a.example', false], ['https://a.example?q', false], ['file:///x', false]])(
    'isOrigin(%p) is %p',
    (value, expected) => expect(isOrigin(value)).toBe(expected),
  );
});

describe('the bearer check', () => {
  const check = bearerCheck('s3cret-token');
  test.each([
    ['Bearer s3cret-token', true], ['bearer s3cret-token', true], ['BEARER  s3cret-token', true],
    [null, false], ['', false], ['s3cret-token', false], ['Basic s3cret-token', false], ['Bearer s3cret-toke', false], ['Bearer s3cret-tokenX', false], ['Bearer ', false],
  ])('%p: %p', (authorization, expected) => {
    expect(check(authorization)).toBe(expected);
  });
});
