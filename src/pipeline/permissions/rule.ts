import { fail, ok, type Outcome } from '../../contract/index.ts';

/**
 * A permission rule in Claude Code's syntax, as far as caplab's tools need it:
 *
 * - `create_card` — a tool by name (exact);
 * - `mcp__fixture` or `mcp__fixture__*` — every tool of MCP server `fixture`;
 * - `mcp__fixture__read_source` — one MCP tool (exact).
 *
 * Content specifiers (`Bash(npm test)`) and other wildcards are refused, not
 * ignored: a rule that silently matches nothing is worse than an error.
 */
export type Rule =
  | { readonly kind: 'tool'; readonly text: string; readonly name: string }
  | { readonly kind: 'server'; readonly text: string; readonly server: string };

const NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Parses one rule.
 *
 * @returns The rule, or `invalid_arguments` / `bad_rule` saying what is wrong.
 */
export function parseRule(text: string): Outcome<Rule> {
  const bad = (why: string): Outcome<Rule> =>
    fail('invalid_arguments', 'bad_rule', `permission rule ${JSON.stringify(text)}: ${why}`);
  if (text.includes('(')) return bad('content specifiers like Tool(…) are not supported; name the tool');
  if (text.startsWith('mcp__')) {
    const rest = text.slice('mcp__'.length);
    const split = rest.indexOf('__');
    const server = split < 0 ? rest : rest.slice(0, split);
    const tool = split < 0 ? undefined : rest.slice(split + 2);
    if (!NAME.test(server)) return bad('expected mcp__<server>, mcp__<server>__* or mcp__<server>__<tool>');
    if (tool === undefined || tool === '*') return ok({ kind: 'server', text, server });
    if (!NAME.test(tool)) return bad('expected mcp__<server>__<tool> with a plain tool name');
    return ok({ kind: 'tool', text, name: text });
  }
  if (!NAME.test(text)) return bad('expected a tool name (letters, digits, _ . -) or an mcp__ form');
  return ok({ kind: 'tool', text, name: text });
}

/**
 * Parses a list of rules (a settings array or repeated CLI flags); the first
 * bad one fails and names where it came from.
 *
 * @param where E.g. `permissions.deny` or `--deny-tool`, for the message.
 */
export function parseRules(texts: readonly string[], where: string): Outcome<readonly Rule[]> {
  const rules: Rule[] = [];
  for (const [index, text] of texts.entries()) {
    const parsed = parseRule(text);
    if (!parsed.ok) return { ...parsed, message: `${where}[${index}]: ${parsed.message}` };
    rules.push(parsed.value);
  }
  return ok(rules);
}

/** Whether a rule covers any of a tool's names. */
export function ruleMatches(rule: Rule, names: readonly string[]): boolean {
  if (rule.kind === 'tool') return names.includes(rule.name);
  const prefix = `mcp__${rule.server}__`;
  return names.some((name) => name.startsWith(prefix) && name.length > prefix.length);
}
