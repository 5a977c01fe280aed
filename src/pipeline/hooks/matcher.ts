import { fail, ok, type Outcome } from '../../contract/index.ts';

/**
 * Hook matchers, read the way Claude Code reads them:
 *
 * - `*`, `""` or no matcher: every tool;
 * - only letters, digits, `_`, `-` and `|`: an exact name, or a `|` list of
 *   exact names (`create_card`, `read_source|create_card`). `mcp__fixture` is
 *   therefore an exact name and matches no tool: write `mcp__fixture__.*`;
 * - anything else: a JavaScript regular expression, **unanchored** and
 *   case-sensitive (`^create` matches `create_card`; write `^create_card$`
 *   to pin a whole name). Unanchored is what Claude Code does, so settings
 *   files mean the same thing in both programs.
 */
const PLAIN = /^[A-Za-z0-9_|-]+$/;

/** A compiled matcher: a predicate over tool names. */
export type ToolNameTest = (toolName: string) => boolean;

function matchAll(): boolean {
  return true;
}

/**
 * Compiles a matcher; an invalid regular expression is a failure value
 * (`invalid_arguments` / `bad_matcher`) so a settings file can name it.
 */
export function compileMatcher(matcher: string | undefined): Outcome<ToolNameTest> {
  if (matcher === undefined || matcher === '' || matcher === '*') return ok(matchAll);
  if (PLAIN.test(matcher)) {
    const names = new Set(matcher.split('|').filter((name) => name !== ''));
    return ok(function exactName(toolName: string): boolean {
      return names.has(toolName);
    });
  }
  let pattern: RegExp;
  try {
    pattern = new RegExp(matcher);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return fail('invalid_arguments', 'bad_matcher', `matcher ${JSON.stringify(matcher)} is not a valid regular expression: ${detail}`);
  }
  return ok(function regexName(toolName: string): boolean {
    return pattern.test(toolName);
  });
}

/**
 * Whether a matcher selects a tool name. An invalid regex matches nothing
 * (settings loading already rejects it; this keeps a hand-built hook inert
 * rather than crashing the pipeline).
 *
 * @example matches('read_source|create_card', 'create_card') // true
 * @example matches('create', 'create_card') // false: plain names are exact
 * @example matches('^create', 'create_card') // true: a regex, unanchored
 */
export function matches(matcher: string | undefined, toolName: string): boolean {
  const compiled = compileMatcher(matcher);
  return compiled.ok && compiled.value(toolName);
}
