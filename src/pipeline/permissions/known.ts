import { fail, ok, type Outcome } from '../../contract/index.ts';
import { matches } from '../hooks/index.ts';
import { toolNames, type Nameable } from '../names.ts';
import { ruleMatches, type Rule } from './rule.ts';

/** Where the run's settings and flags name tools, each with a label for messages. */
export interface NameUses {
  /** Permission rules and `--allow-tool` / `--deny-tool`. */
  readonly rules: readonly { readonly where: string; readonly rule: Rule }[];
  /** Hook matchers (Claude Code syntax). */
  readonly matchers: readonly { readonly where: string; readonly matcher: string }[];
}

function describeKnown(known: readonly Nameable[], configured: readonly string[]): string {
  const names = [...new Set(known.flatMap((tool) => toolNames(tool)))];
  const servers = [...new Set([...known.flatMap((tool) => (tool.binding.server ? [tool.binding.server.key] : [])), ...configured].map((key) => `mcp__${key}`))];
  return `known tools: ${names.join(', ') || '(none)'}; known servers: ${servers.join(', ') || '(none)'}`;
}

/**
 * Checks every name the settings and flags use against what the run knows,
 * reading names with `toolNames` and matching them exactly as the pipeline
 * will (`ruleMatches`, the hook matcher):
 *
 * - a permission rule or flag that matches no known tool or server is an
 *   error: a deny that silently denies nothing is worse than no run;
 * - an `mcp__…` hook matcher that matches nothing is an error for the same reason;
 * - any other matcher that matches nothing (a plain name or regex, as in
 *   settings shared with Claude Code's own tools) is a notice.
 *
 * A rule or matcher naming a whole server (`mcp__<key>`, `mcp__<key>__*`)
 * is checked against `servers` too: a configured server that failed to
 * start, or lists nothing, is still a server the user named.
 *
 * @param known Every tool the run may offer for its transport (bound,
 *   deferred, built-in, or listed by a configured server).
 * @param servers The keys of the run's configured servers, started or not.
 * @returns Notices to show, or `invalid_arguments` / `unknown_name` naming what exists.
 */
export function checkNames(known: readonly Nameable[], uses: NameUses, servers: readonly string[] = []): Outcome<readonly string[]> {
  const names = known.map((tool) => toolNames(tool));
  const unknown: string[] = [];
  const notices: string[] = [];
  const wholeServer = (text: string): boolean => servers.some((key) => [`mcp__${key}`, `mcp__${key}__*`, `mcp__${key}__.*`].includes(text));
  for (const { where, rule } of uses.rules) {
    if (rule.kind === 'server' && servers.includes(rule.server)) continue;
    if (!names.some((tool) => ruleMatches(rule, tool))) unknown.push(where);
  }
  for (const { where, matcher } of uses.matchers) {
    if (wholeServer(matcher) || names.some((tool) => tool.some((name) => matches(matcher, name)))) continue;
    if (matcher.startsWith('mcp__')) unknown.push(where);
    else notices.push(`${where} matches no tool of this run (${describeKnown(known, servers)})`);
  }
  if (unknown.length > 0) {
    return fail('invalid_arguments', 'unknown_name', `${unknown.join('; ')}: names no tool or server this run knows (${describeKnown(known, servers)})`, unknown);
  }
  return ok(notices);
}
