import * as v from 'valibot';
import type { HookEvent, HookResult } from '../hook.ts';

/**
 * How a finished command hook is read (Claude Code's hook protocol):
 *
 * - exit 0, stdout is a JSON object: `hookSpecificOutput.permissionDecision`
 *   (`allow` / `deny` / `ask`), `permissionDecisionReason`, `updatedInput`
 *   (PreToolUse only); the older top-level `decision: "block"|"approve"` +
 *   `reason` is read too. Other stdout is recorded, nothing more;
 * - exit 2: blocks, stderr is the reason (stdout is ignored, as in Claude
 *   Code). After the tool ran (PostToolUse) a block cannot undo anything:
 *   it flags the result with the reason;
 * - any other exit, a timeout, a failed start: recorded, non-blocking.
 *   Claude Code fails open here too; a deny rule, not a hook, is the hard
 *   boundary.
 */
export interface Finished {
  readonly hook: string;
  readonly event: HookEvent;
  /** `undefined` when the process never exited on its own (timeout, abort, spawn failure). */
  readonly exitCode: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut?: boolean;
  readonly note?: string;
}

const Decision = v.picklist(['allow', 'deny', 'ask']);

/** The part of hook JSON output caplab reads; unknown fields are ignored, as in Claude Code. */
const HookJson = v.looseObject({
  decision: v.optional(v.picklist(['approve', 'block'])),
  reason: v.optional(v.string()),
  hookSpecificOutput: v.optional(
    v.looseObject({
      hookEventName: v.optional(v.string()),
      permissionDecision: v.optional(Decision),
      permissionDecisionReason: v.optional(v.string()),
      updatedInput: v.optional(v.unknown()),
      additionalContext: v.optional(v.string()),
    }),
  ),
});

function captured(done: Finished): Pick<HookResult, 'stdout' | 'stderr'> {
  return {
    ...(done.stdout !== '' ? { stdout: done.stdout } : {}),
    ...(done.stderr !== '' ? { stderr: done.stderr } : {}),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads exit-0 stdout: a decision, a rewrite, or just text to record. */
function readSuccess(done: Finished, base: HookResult): HookResult {
  const trimmed = done.stdout.trim();
  if (!trimmed.startsWith('{')) return trimmed === '' ? base : { ...base, note: 'non-JSON stdout recorded' };
  const parsed = v.safeParse(HookJson, parseJson(trimmed));
  if (!parsed.success) return { ...base, note: 'stdout is not valid hook JSON; recorded, ignored' };
  const json = parsed.output;
  const specific = json.hookSpecificOutput;
  if (specific?.hookEventName !== undefined && specific.hookEventName !== done.event) {
    return { ...base, note: `hookSpecificOutput is for ${specific.hookEventName}, not ${done.event}; ignored` };
  }
  const notes: string[] = [];
  let result: HookResult = base;
  if (json.decision === 'block') {
    result = { ...result, block: json.reason ?? `blocked by hook ${done.hook}` };
  } else if (json.decision === 'approve' && done.event === 'PreToolUse') {
    result = { ...result, permissionDecision: 'allow' };
  }
  if (specific?.permissionDecision !== undefined) {
    if (done.event === 'PreToolUse') result = { ...result, permissionDecision: specific.permissionDecision };
    else notes.push(`permissionDecision ignored for ${done.event}`);
  }
  const reason = specific?.permissionDecisionReason ?? json.reason;
  if (reason !== undefined) result = { ...result, reason };
  if (specific !== undefined && 'updatedInput' in specific) {
    if (done.event === 'PreToolUse') result = { ...result, updatedInput: specific.updatedInput };
    else notes.push(`updatedInput ignored for ${done.event}`);
  }
  if (specific?.additionalContext !== undefined) result = { ...result, additionalContext: specific.additionalContext };
  return notes.length > 0 ? { ...result, note: notes.join('; ') } : result;
}

/**
 * Turns a finished command hook into a `HookResult` value.
 *
 * @param done The exit code and the bounded stdout/stderr of one run.
 * @returns What the hook said; never throws.
 */
export function interpretHook(done: Finished): HookResult {
  const base: HookResult = {
    hook: done.hook,
    ...(done.exitCode !== undefined ? { exitCode: done.exitCode } : {}),
    ...captured(done),
    ...(done.timedOut ? { timedOut: true } : {}),
    ...(done.note !== undefined ? { note: done.note } : {}),
  };
  if (done.exitCode === undefined) return base;
  if (done.exitCode === 0) return readSuccess(done, base);
  if (done.exitCode === 2) {
    const reason = done.stderr.trim();
    return { ...base, block: reason !== '' ? reason : `blocked by hook ${done.hook} (exit 2, no reason on stderr)` };
  }
  return { ...base, note: `exit ${done.exitCode}: non-blocking error, recorded` };
}
