import type { Redactor } from '../contract/index.ts';

type Slot = Record<string | number, unknown>;

/**
 * A copy of a value with every string redacted (a server may echo its
 * environment anywhere in what probe reports), built without recursion: a
 * value nested deeper than the stack is copied like any other. Keys keep
 * their order, and a `__proto__` key stays an own key (it never sets a
 * prototype). Keys themselves are not redacted.
 *
 * @example
 * redactDeep({ a: ['/run/secret-abc'] }, redactorFor({ T: '/run/secret-abc' })); // { a: ['[redacted:T]'] }
 */
export function redactDeep<T>(value: T, redactor: Redactor): T {
  const root: Slot = {};
  const stack: { readonly from: unknown; readonly into: Slot; readonly key: string | number }[] = [{ from: value, into: root, key: 'value' }];
  while (stack.length > 0) {
    const { from, into, key } = stack.pop()!;
    if (typeof from === 'string') {
      into[key] = redactor.redact(from);
    } else if (Array.isArray(from)) {
      const copy: unknown[] = new Array(from.length);
      into[key] = copy;
      for (let index = 0; index < from.length; index++) stack.push({ from: from[index], into: copy as unknown as Slot, key: index });
    } else if (from !== null && typeof from === 'object') {
      const copy: Slot = {};
      into[key] = copy;
      for (const [name, inner] of Object.entries(from)) {
        // An own property now, in the original order; the value is filled in when its turn comes.
        Object.defineProperty(copy, name, { value: undefined, writable: true, enumerable: true, configurable: true });
        stack.push({ from: inner, into: copy, key: name });
      }
    } else {
      into[key] = from;
    }
  }
  return root['value'] as T;
}
