import { fail, type Failure } from '../../contract/index.ts';
import type { PermissionDecision } from '../hook.ts';
import type { RuntimeTool } from '../tool.ts';
import { toolNames, type Nameable } from '../names.ts';
import { ruleMatches, type Rule } from './rule.ts';

/** Rules from settings files, by list. */
export interface PermissionRules {
  readonly allow: readonly Rule[];
  readonly ask: readonly Rule[];
  readonly deny: readonly Rule[];
}

export const NO_RULES: PermissionRules = { allow: [], ask: [], deny: [] };

export interface PolicyOptions {
  readonly rules: PermissionRules;
  /** `--allow-tool=NAME`, parsed with `parseRules`. */
  readonly allowFlags: readonly Rule[];
  /** `--deny-tool=NAME`, parsed with `parseRules`. */
  readonly denyFlags: readonly Rule[];
  /** caplab has no prompt: `ask` always resolves by policy. The type leaves room for one. */
  readonly interactive: false;
  /** `--yes`: a non-interactive `ask` resolves to allow instead of deny. */
  readonly yes: boolean;
}

/** What the PreToolUse hooks decided (the engine's verdict, `runHookEvent`), if anything. */
export interface HookDecision {
  readonly decision: 'allow' | 'deny' | 'ask';
  readonly hook?: string;
  readonly reason?: string;
}

/** What the policy reads of a tool: its names and whether it is read-only (a runtime tool, or an offer before anything opened). */
export type PolicyTool = Nameable & { readonly attributes: Pick<RuntimeTool['attributes'], 'readOnly'> };

export type Policy = (tool: PolicyTool, hook?: HookDecision) => PermissionDecision;

function first(rules: readonly Rule[], names: readonly string[]): Rule | undefined {
  return rules.find((rule) => ruleMatches(rule, names));
}

function hookName(hook: HookDecision): string {
  return hook.hook !== undefined ? `hook ${hook.hook}` : 'a hook';
}

/**
 * Creates the permission policy: a pure function of the rules, the flags and
 * the hooks' decision. Order (first that applies wins):
 *
 * 1. deny — a `--deny-tool` flag, then a settings `deny` rule, then a hook's
 *    `deny`. Nothing overrides a deny.
 * 2. ask — a settings `ask` rule (a hook's `allow` does not skip it, as in
 *    Claude Code), then a hook's `ask`.
 * 3. allow — a hook's `allow`, then an `--allow-tool` flag, then a settings
 *    `allow` rule.
 * 4. default — read-only tools allow; every other tool asks.
 *
 * Flags are rules at command-line scope: they join the same deny > ask >
 * allow order as settings rules, so `--allow-tool` never beats a deny or ask
 * rule and `--deny-tool` beats everything. The ask path is non-interactive:
 * denied by policy, or allowed by policy with `--yes`.
 *
 * @example
 * const decide = permissionPolicy({ rules: NO_RULES, allowFlags: [], denyFlags: [], interactive: false, yes: false });
 * decide(createCard); // { decision: 'deny', by: 'policy', asked: { by: 'default' }, … }
 */
export function permissionPolicy(options: PolicyOptions): Policy {
  const { rules, allowFlags, denyFlags, yes } = options;

  function ask(name: string, asked: NonNullable<PermissionDecision['asked']>, why: string): PermissionDecision {
    return yes
      ? { decision: 'allow', by: 'policy', asked, reason: `${why}; non-interactive ask allowed by --yes` }
      : { decision: 'deny', by: 'policy', asked, reason: `${why}; non-interactive ask denied (pass --yes to allow) for ${name}` };
  }

  return function decide(tool: PolicyTool, hook?: HookDecision): PermissionDecision {
    const names = toolNames(tool);
    const name = names[0] ?? tool.contract.name;
    const denyFlag = first(denyFlags, names);
    if (denyFlag) return { decision: 'deny', by: 'flag', rule: denyFlag.text, reason: `--deny-tool=${denyFlag.text}` };
    const denyRule = first(rules.deny, names);
    if (denyRule) return { decision: 'deny', by: 'rule', rule: denyRule.text, reason: `deny rule ${denyRule.text}` };
    if (hook?.decision === 'deny') {
      return { decision: 'deny', by: 'hook', reason: hook.reason ?? `denied by ${hookName(hook)}` };
    }
    const askRule = first(rules.ask, names);
    if (askRule) return ask(name, { by: 'rule', rule: askRule.text }, `ask rule ${askRule.text}`);
    if (hook?.decision === 'ask') return ask(name, { by: 'hook' }, hook.reason ?? `${hookName(hook)} asked`);
    if (hook?.decision === 'allow') {
      return { decision: 'allow', by: 'hook', reason: hook.reason ?? `allowed by ${hookName(hook)}` };
    }
    const allowFlag = first(allowFlags, names);
    if (allowFlag) return { decision: 'allow', by: 'flag', rule: allowFlag.text, reason: `--allow-tool=${allowFlag.text}` };
    const allowRule = first(rules.allow, names);
    if (allowRule) return { decision: 'allow', by: 'rule', rule: allowRule.text, reason: `allow rule ${allowRule.text}` };
    if (tool.attributes.readOnly) return { decision: 'allow', by: 'default', reason: 'read-only tools are allowed by default' };
    return ask(name, { by: 'default' }, 'tools that are not read-only ask by default');
  };
}

/**
 * The failure for a denied call: class `permission_denied`, kind = who
 * decided (`rule`, `flag`, `hook`, `policy`). A hook's exit-2 block is
 * `deniedByHookBlock`.
 */
export function permissionFailure(decision: PermissionDecision): Failure {
  if (decision.decision !== 'deny') throw new Error('permissionFailure: the decision allows the call');
  return fail('permission_denied', decision.by, decision.reason);
}

/** The failure for a PreToolUse block (exit 2 or `decision: "block"`): kind `hook`. */
export function deniedByHookBlock(hook: string, reason: string): Failure {
  return fail('permission_denied', 'hook', `blocked by ${hook}: ${reason}`);
}
