import { expect, test } from 'bun:test';
import type { PermissionDecision } from '../hook.ts';
import type { HookDecision } from '../permissions/index.ts';
import { callState, echoPipeline, echoTool, settle } from '../testing/call-state.ts';
import { permission } from './permission.ts';

const tool = echoTool();
const hookDecision: HookDecision = { decision: 'allow', hook: 'h' };
const deciding = (decision: PermissionDecision, seen: unknown[] = []) =>
  settle(permission.run(callState({ tool, hookDecision }, echoPipeline(tool, { permission: (_t, hook) => (seen.push(hook), decision) }))));

test('permission adds the decision; the record says who decided and why', async () => {
  const allow: PermissionDecision = { decision: 'allow', by: 'rule', rule: 'echo', reason: 'allow rule echo' };
  const step = await deciding(allow);
  expect([step.adds, step.detail, step.failure]).toEqual([{ permission: allow }, 'rule: allow rule echo', undefined]);
});

test('permission: a deny stops the call, and the decision is still recorded', async () => {
  const deny: PermissionDecision = { decision: 'deny', by: 'flag', reason: 'denied by flag' };
  const step = await deciding(deny);
  expect([step.failure?.class, step.failure?.kind, step.adds]).toEqual(['permission_denied', 'flag', { permission: deny }]);
});

test("permission: the PreToolUse hooks' decision reaches the policy", async () => {
  const seen: unknown[] = [];
  await deciding({ decision: 'allow', by: 'default', reason: 'r' }, seen);
  expect(seen).toEqual([{ decision: 'allow', hook: 'h' }]);
});
