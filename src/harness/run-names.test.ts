import { expect, test } from 'bun:test';
import { runNames } from './run-names.ts';

test('names count per kind, and a child scope numbers apart from its parent and its siblings', () => {
  const root = runNames();
  expect([root.next('act'), root.next('act'), root.next('req')]).toEqual(['act-01', 'act-02', 'req-01']);
  const a = root.child('agent');
  const b = root.child('agent');
  expect([a.next('act'), b.next('act'), a.next('act'), root.next('act')]).toEqual(['agent-1/act-01', 'agent-2/act-01', 'agent-1/act-02', 'act-03']);
  expect(a.child('agent').next('act')).toBe('agent-1/agent-1/act-01');
});

test('of many names across nested scopes, none repeats', () => {
  const root = runNames();
  const scopes = [root, root.child('x'), root.child('x'), root.child('y')];
  scopes.push(scopes[1]!.child('x'));
  const names = scopes.flatMap((scope) => Array.from({ length: 120 }, () => scope.next('act')));
  expect(new Set(names).size).toBe(names.length);
});
