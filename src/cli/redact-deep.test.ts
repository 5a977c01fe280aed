import { expect, test } from 'bun:test';
import { redactorFor } from '../contract/index.ts';
import { redactDeep } from './redact-deep.ts';

const redactor = redactorFor({ TOKEN: 'sekrit-value' });

test('every string is redacted; keys, order, arrays, scalars and a __proto__ key are kept', () => {
  const value = JSON.parse('{"b":["sekrit-value",1,null,true],"a":{"__proto__":"x sekrit-value","2":"n","1":false}}');
  const copy = redactDeep(value, redactor);
  expect(JSON.stringify(copy)).toBe('{"b":["[redacted:TOKEN]",1,null,true],"a":{"1":false,"2":"n","__proto__":"x [redacted:TOKEN]"}}');
  expect(Object.getPrototypeOf(copy.a)).toBe(Object.prototype);
  expect(value.b[0]).toBe('sekrit-value'); // a copy: the original is untouched
});

test('a value nested deeper than the stack is copied without recursion', () => {
  const deep = JSON.parse(`${'{"a":'.repeat(50_000)}"sekrit-value"${'}'.repeat(50_000)}`);
  let at = redactDeep(deep, redactor);
  for (let i = 0; i < 50_000; i++) at = at.a;
  expect(at).toBe('[redacted:TOKEN]');
});
