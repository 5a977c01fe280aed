import { issuePath } from '../../base/index.ts';
import * as v from 'valibot';
import type { Outcome } from '../../contract/index.ts';
import { compileMatcher } from '../hooks/index.ts';
import { parseRule } from '../permissions/index.ts';

/**
 * The settings file caplab reads: the hooks and permissions parts of Claude
 * Code's `settings.json`.
 *
 * Strict on purpose: an unknown key (a typo like `PreTooluse`, an event or a
 * hook type caplab does not run, `defaultMode`) is an error, not ignored — a
 * guard the user believes is active must not silently do nothing.
 */

/**
 * Wraps an object schema so that an array is refused: valibot's object
 * schemas accept arrays, and `"hooks": []` must not silently mean "no hooks".
 */
function record<const T extends v.GenericSchema>(schema: T, what: string) {
  const isRecord = (input: unknown): boolean => typeof input === 'object' && input !== null && !Array.isArray(input);
  return v.pipe(v.custom<v.InferInput<T>>(isRecord, `expected ${what}`), schema);
}

/** Hook timeouts are seconds (Claude Code's unit); the cap catches milliseconds written by mistake. */
export const MAX_HOOK_TIMEOUT_SEC = 600;

const CommandHook = record(
  v.strictObject({
    type: v.literal('command', 'only "command" hooks are supported'),
    command: v.pipe(v.string('expected a shell command string'), v.trim(), v.nonEmpty('expected a non-empty command')),
    timeout: v.optional(
      v.pipe(
        v.number('expected seconds as a number'),
        v.finite('expected a finite number of seconds'),
        v.gtValue(0, 'expected more than 0 seconds'),
        v.maxValue(MAX_HOOK_TIMEOUT_SEC, `expected at most ${MAX_HOOK_TIMEOUT_SEC} seconds (the unit is seconds)`),
      ),
    ),
  }),
  'a hook object',
);

/** A string `parse` accepts; a refusal's message is the parser's own. */
function parsedBy(parse: (text: string) => Outcome<unknown>, what: string) {
  return v.pipe(
    v.string(`expected a ${what} string`),
    v.check(
      (text) => parse(text).ok,
      (issue) => {
        const parsed = parse(String(issue.input));
        return parsed.ok ? `invalid ${what}` : parsed.message;
      },
    ),
  );
}

const Matcher = parsedBy(compileMatcher, 'matcher');

const HookGroup = record(
  v.strictObject({
    matcher: v.optional(Matcher),
    hooks: v.array(CommandHook, 'expected an array of hooks'),
  }),
  'a matcher group object',
);

const RuleText = parsedBy(parseRule, 'rule');

const RuleList = v.optional(v.array(RuleText, 'expected an array of rule strings'), []);

export const SettingsSchema = record(
  v.strictObject({
    $schema: v.optional(v.string()),
    hooks: v.optional(
      record(
        v.strictObject({
          PreToolUse: v.optional(v.array(HookGroup, 'expected an array of matcher groups'), []),
          PostToolUse: v.optional(v.array(HookGroup, 'expected an array of matcher groups'), []),
          // Matched on the subagent's type (`agent_type`), not on a tool.
          SubagentStart: v.optional(v.array(HookGroup, 'expected an array of matcher groups'), []),
          SubagentStop: v.optional(v.array(HookGroup, 'expected an array of matcher groups'), []),
        }),
        'an object keyed by event',
      ),
      {},
    ),
    permissions: v.optional(record(v.strictObject({ allow: RuleList, ask: RuleList, deny: RuleList }), 'an object with allow/ask/deny'), {}),
  }),
  'a JSON object at the top level',
);

export type SettingsFile = v.InferOutput<typeof SettingsSchema>;

/** `hooks.PreToolUse.0.matcher: …` — the field first, then what is wrong with it. */
export function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = issuePath(issue);
  // An unknown key arrives as `Expected never`: say so in words.
  const message = issue.expected === 'never' ? `unknown field (caplab reads only hooks and permissions; see the docs)` : issue.message;
  return path !== undefined ? `${path}: ${message}` : message;
}
