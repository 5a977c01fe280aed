/**
 * Permissions: Claude Code rule syntax (`tool`, `mcp__server`,
 * `mcp__server__tool`), Deno-style flags, and one pure policy function with
 * deny > ask > allow precedence. See policy.ts for the exact order.
 */
export { parseRule, parseRules, ruleMatches } from './rule.ts';
export type { Rule } from './rule.ts';
export { deniedByHookBlock, NO_RULES, permissionFailure, permissionPolicy } from './policy.ts';
export type { HookDecision, PermissionRules, Policy, PolicyOptions, PolicyTool } from './policy.ts';
export { checkNames } from './known.ts';
export type { NameUses } from './known.ts';
