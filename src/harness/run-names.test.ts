import { expect, test } from 'bun:test';
import { runNames, type RunNames } from './run-names.ts';

test('names count per kind, and a child scope numbers apart from its parent and its siblings', () => {
  const root = runNames();
  expect([root.next('act'), root.next('act'), root.next('req')]).toEqual(['act-01', 'act-02', 'req-01']);
  const a = root.child('agent');
  const b = root.child('agent');
  expect([a.next('act'), b.next('act'), a.next('act'), root.next('act')]).toEqual(['agent-1/act-01', 'agent-2/act-01', 'agent-1/act-02', 'act-03']);
  expect(a.child('agent').next('act')).toBe('agent-1/agent-1/act-01');
});

test('a request and an action are named with their files: the root scope names them as every run record has', () => {
  const root = runNames();
  expect(root.request()).toEqual({ id: 'req-01', payload: 'requests/01-request.json', response: 'requests/01-response.json' });
  expect(root.action()).toEqual({ id: 'act-01', output: 'outputs/act-01.txt', result: 'results/act-01.json' });
  // One count per kind, whichever way a name is asked for.
  expect([root.next('req'), root.request().id, root.next('act'), root.action().id]).toEqual(['req-02', 'req-03', 'act-02', 'act-03']);
});

test("a child's requests and actions, files included, are under its prefix", () => {
  const child = runNames().child('host');
  expect(child.request()).toEqual({ id: 'host-1/req-01', payload: 'requests/host-1/01-request.json', response: 'requests/host-1/01-response.json' });
  expect(child.action()).toEqual({ id: 'host-1/act-01', output: 'outputs/host-1/act-01.txt', result: 'results/host-1/act-01.json' });
});

/** Every name a scope gives out, of every way of asking, `n` times each. */
const drawn = (scope: RunNames, n: number): string[] =>
  Array.from({ length: n }, () => {
    const request = scope.request();
    const action = scope.action();
    return [scope.next('act'), scope.next('req'), request.id, request.payload, request.response, action.id, action.output];
  }).flat();

test('of many names across nested scopes, files included, none repeats', () => {
  const root = runNames();
  const scopes = [root, root.child('x'), root.child('x'), root.child('y')];
  scopes.push(scopes[1]!.child('x'), scopes[1]!.child('x'));
  scopes.push(scopes[4]!.child('x'), scopes[3]!.child('x'));
  const names = scopes.flatMap((scope) => drawn(scope, 120));
  expect(new Set(names).size).toBe(names.length);
});

test("a parent's numbering is the same with children as without: nested loops never move the record's names", () => {
  const alone = runNames();
  const parent = runNames();
  const sequence = (scope: RunNames, withChildren: boolean): string[] =>
    Array.from({ length: 5 }, () => {
      if (withChildren) drawn(parent.child('agent').child('host'), 3);
      return [scope.request().id, scope.action().id, scope.action().output];
    }).flat();
  expect(sequence(parent, true)).toEqual(sequence(alone, false));
});
