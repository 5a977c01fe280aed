import { ok, type Outcome } from '../contract/index.ts';
import { builtinOffers, parseDefer, toolSearch, type OfferedTool } from '../harness/index.ts';
import { checkNames, ruleMatches, toolNames, type Nameable, type Rule } from '../pipeline/index.ts';

/** `--defer-tool` of `caplab tools`: the rules, and ToolSearch's offer when there are any. */
export interface ToolsDefer {
  readonly rules: readonly Rule[];
  /** ToolSearch's offer, listed after the tools when anything is deferred. */
  readonly search: readonly OfferedTool[];
}

/**
 * `--defer-tool` names as a run checks them (`parseDefer`, then `checkNames`
 * against the tools listed and their servers): an unknown name, or
 * `ToolSearch`, is a usage error.
 */
export function toolsDefer(names: readonly string[], offers: readonly Nameable[], servers: readonly string[] = []): Outcome<ToolsDefer> {
  const parsed = parseDefer(names.length > 0 ? [{ source: '--defer-tool', names }] : []);
  if (!parsed.ok) return parsed;
  const search = parsed.value.length > 0 ? builtinOffers([toolSearch()]) : [];
  const known = checkNames([...offers, ...search], { rules: parsed.value, matchers: [] }, servers);
  if (!known.ok) return known;
  return ok({ rules: parsed.value.map(({ rule }) => rule), search });
}

/** Whether the defer rules name a tool. */
export function isDeferred(rules: readonly Rule[], tool: Nameable): boolean {
  return rules.some((rule) => ruleMatches(rule, toolNames(tool)));
}
