import { describe, expect, test } from 'bun:test';
import { bind } from '../../binding/index.ts';
import { fail, type Contract } from '../../contract/index.ts';
import { createCardContract, readSourceContract } from '../../excerpt/contracts.ts';
import { attributesOf, type RuntimeTool } from '../tool.ts';
import { deniedByHookBlock, NO_RULES, permissionFailure, permissionPolicy, type HookDecision, type PolicyOptions } from './policy.ts';
import { parseRules } from './rule.ts';

// Real contracts and bindings; the handler is never called by the policy.
const notCalled: RuntimeTool['handler'] = async () => fail('business', 'tool_error', 'the policy never runs a handler');
const server = { key: 'fixture', name: 'fixture', version: '1', protocolVersion: '2025-06-18', endpoint: { kind: 'stdio', argv: ['caplab', 'serve'], cwd: '/', envNames: [] }, instanceId: 'i1' } as const;

/** A runtime tool for `contract`: local, or behind the fixture server (optionally under another model-facing name). */
function runtime(contract: Contract, mcp?: { readonly tool?: string }): RuntimeTool {
  return {
    contract,
    binding: bind(contract, mcp ? { ...mcp, implementation: { kind: 'mcp', version: '1' }, server } : { implementation: { kind: 'local', version: '1' } }),
    attributes: attributesOf(contract, { fromMcp: mcp !== undefined }),
    handler: notCalled,
  };
}
const readSource = runtime(readSourceContract);
const mcpReadSource = runtime(readSourceContract, {});
const createCard = runtime(createCardContract);
const mcpCreateCard = runtime(createCardContract, { tool: 'mcp__fixture__create_card' });

function rules(texts: readonly string[]) {
  const parsed = parseRules(texts, 'test');
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

interface Row {
  readonly why: string;
  readonly tool: RuntimeTool;
  readonly allow?: string[];
  readonly ask?: string[];
  readonly deny?: string[];
  readonly allowFlags?: string[];
  readonly denyFlags?: string[];
  readonly yes?: boolean;
  readonly hook?: HookDecision['decision'];
  readonly expect: readonly [decision: 'allow' | 'deny', by: string, rule?: string];
}

const table: readonly Row[] = [
  // Defaults and the non-interactive ask path.
  { why: 'read-only default allows', tool: readSource, expect: ['allow', 'default'] },
  { why: 'non-read-only default asks; non-interactive ask denies', tool: createCard, expect: ['deny', 'policy'] },
  { why: '--yes resolves the default ask to allow', tool: createCard, yes: true, expect: ['allow', 'policy'] },
  // Settings rules and precedence deny > ask > allow.
  { why: 'allow rule allows', tool: createCard, allow: ['create_card'], expect: ['allow', 'rule', 'create_card'] },
  { why: 'deny rule denies a read-only tool', tool: readSource, deny: ['read_source'], expect: ['deny', 'rule', 'read_source'] },
  { why: 'deny beats allow', tool: createCard, allow: ['create_card'], deny: ['create_card'], expect: ['deny', 'rule', 'create_card'] },
  { why: 'ask beats allow (then denied by policy)', tool: createCard, allow: ['create_card'], ask: ['create_card'], expect: ['deny', 'policy'] },
  { why: 'ask rule on a read-only tool, --yes', tool: readSource, ask: ['read_source'], yes: true, expect: ['allow', 'policy'] },
  { why: 'deny beats ask', tool: createCard, ask: ['create_card'], deny: ['create_card'], yes: true, expect: ['deny', 'rule', 'create_card'] },
  { why: '--yes never overrides a deny rule', tool: createCard, deny: ['create_card'], yes: true, expect: ['deny', 'rule', 'create_card'] },
  // MCP rule forms.
  { why: 'plain name matches the MCP tool by its model-visible name', tool: mcpReadSource, deny: ['read_source'], expect: ['deny', 'rule', 'read_source'] },
  { why: 'mcp__server covers every tool of the server', tool: mcpReadSource, deny: ['mcp__fixture'], expect: ['deny', 'rule', 'mcp__fixture'] },
  { why: 'mcp__server__* is the same', tool: mcpCreateCard, allow: ['mcp__fixture__*'], expect: ['allow', 'rule', 'mcp__fixture__*'] },
  { why: 'mcp__server__tool, exact', tool: mcpReadSource, deny: ['mcp__fixture__read_source'], expect: ['deny', 'rule', 'mcp__fixture__read_source'] },
  { why: 'mcp__server__tool does not cover other tools', tool: mcpCreateCard, allow: ['mcp__fixture__read_source'], expect: ['deny', 'policy'] },
  { why: 'another server does not match', tool: mcpReadSource, deny: ['mcp__other'], expect: ['allow', 'default'] },
  { why: 'a server prefix is not a name prefix', tool: mcpReadSource, deny: ['mcp__fix'], expect: ['allow', 'default'] },
  { why: 'mcp rules never match a local tool', tool: readSource, deny: ['mcp__fixture'], expect: ['allow', 'default'] },
  { why: 'model-visible mcp name matches a plain rule', tool: mcpCreateCard, allow: ['mcp__fixture__create_card'], expect: ['allow', 'rule', 'mcp__fixture__create_card'] },
  // Flags.
  { why: '--deny-tool acts as a deny rule', tool: createCard, denyFlags: ['create_card'], expect: ['deny', 'flag', 'create_card'] },
  { why: '--deny-tool beats an allow rule and --yes', tool: createCard, allow: ['create_card'], denyFlags: ['create_card'], yes: true, expect: ['deny', 'flag', 'create_card'] },
  { why: '--allow-tool allows', tool: createCard, allowFlags: ['create_card'], expect: ['allow', 'flag', 'create_card'] },
  { why: '--allow-tool does not beat a deny rule', tool: createCard, allowFlags: ['create_card'], deny: ['create_card'], expect: ['deny', 'rule', 'create_card'] },
  { why: '--allow-tool does not beat an ask rule', tool: createCard, allowFlags: ['create_card'], ask: ['create_card'], expect: ['deny', 'policy'] },
  { why: '--deny-tool with an mcp form', tool: mcpReadSource, denyFlags: ['mcp__fixture'], expect: ['deny', 'flag', 'mcp__fixture'] },
  // Hooks.
  { why: "hook allow skips the default ask", tool: createCard, hook: 'allow', expect: ['allow', 'hook'] },
  { why: 'hook allow never overrides a deny rule', tool: createCard, deny: ['create_card'], hook: 'allow', expect: ['deny', 'rule', 'create_card'] },
  { why: 'hook allow never overrides --deny-tool', tool: createCard, denyFlags: ['create_card'], hook: 'allow', expect: ['deny', 'flag', 'create_card'] },
  { why: 'hook allow does not skip an ask rule', tool: createCard, ask: ['create_card'], hook: 'allow', expect: ['deny', 'policy'] },
  { why: 'hook deny denies despite an allow rule', tool: createCard, allow: ['create_card'], hook: 'deny', expect: ['deny', 'hook'] },
  { why: 'hook deny denies a read-only tool', tool: readSource, hook: 'deny', yes: true, expect: ['deny', 'hook'] },
  { why: 'hook ask goes to the ask path despite an allow rule', tool: createCard, allow: ['create_card'], hook: 'ask', expect: ['deny', 'policy'] },
  { why: 'hook ask with --yes', tool: readSource, hook: 'ask', yes: true, expect: ['allow', 'policy'] },
];

describe('permissionPolicy precedence', () => {
  for (const row of table) {
    test(row.why, () => {
      const options: PolicyOptions = {
        rules: { allow: rules(row.allow ?? []), ask: rules(row.ask ?? []), deny: rules(row.deny ?? []) },
        allowFlags: rules(row.allowFlags ?? []),
        denyFlags: rules(row.denyFlags ?? []),
        interactive: false,
        yes: row.yes ?? false,
      };
      const hook = row.hook !== undefined ? { decision: row.hook, hook: 'h.sh' } : undefined;
      const decision = permissionPolicy(options)(row.tool, hook);
      const [expected, by, rule] = row.expect;
      expect(decision.decision).toBe(expected);
      expect(decision.by).toBe(by as typeof decision.by);
      expect(decision.rule).toBe(rule);
      expect(decision.reason.length).toBeGreaterThan(0);
    });
  }
});

describe('ask path record', () => {
  const decide = permissionPolicy({ rules: NO_RULES, allowFlags: [], denyFlags: [], interactive: false, yes: false });

  test('says what asked', () => {
    expect(decide(createCard).asked).toEqual({ by: 'default' });
    expect(decide(createCard, { decision: 'ask', hook: 'h' }).asked).toEqual({ by: 'hook' });
    expect(decide(readSource).asked).toBeUndefined();
  });

  test('a hook reason is kept', () => {
    expect(decide(readSource, { decision: 'deny', hook: 'h', reason: 'not now' }).reason).toBe('not now');
  });
});

describe('failures', () => {
  test('a deny becomes permission_denied with the decider as kind', () => {
    const decide = permissionPolicy({ rules: NO_RULES, allowFlags: [], denyFlags: rules(['create_card']), interactive: false, yes: false });
    const failure = permissionFailure(decide(createCard));
    expect(failure).toEqual({ ok: false, class: 'permission_denied', kind: 'flag', message: '--deny-tool=create_card' });
    expect(deniedByHookBlock('sh ./deny-create.sh', 'no cards').kind).toBe('hook');
  });

  test('asking for the failure of an allow is a programmer error', () => {
    const decide = permissionPolicy({ rules: NO_RULES, allowFlags: [], denyFlags: [], interactive: false, yes: false });
    expect(() => permissionFailure(decide(readSource))).toThrow();
  });
});
