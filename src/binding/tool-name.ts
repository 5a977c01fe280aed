import { sha256Hex } from '../contract/index.ts';

/**
 * The version of the naming rule below. A binding of a configured server's
 * tool records it beside both names, so a reader (verify) knows which rule
 * derived the model name from the full one and can derive it again.
 */
export const TOOL_NAME_RULE = 'caplab.tool-name/1';

/** A tool name the Anthropic Messages API accepts. */
export const MODEL_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The longest stem kept before the hash suffix: 55 + `_` + 8 hex = 64. */
export const TOOL_NAME_STEM = 55;

/** Every code point outside the accepted alphabet (with `u`, a surrogate pair is one). */
const OTHER = /[^a-zA-Z0-9_-]/gu;

/**
 * Claude Code's name for a server's tool, as hooks and permission rules see
 * it: `mcp__<key>__<tool>`.
 *
 * @example qualifiedName('everything', 'get-sum') // 'mcp__everything__get-sum'
 */
export function qualifiedName(key: string, tool: string): string {
  return `mcp__${key}__${tool}`;
}

/**
 * The name with every character outside `[a-zA-Z0-9_-]` replaced by `_`,
 * one `_` per code point: the part of the rule server keys share.
 */
export function replaceOther(name: string): string {
  return name.replace(OTHER, '_');
}

/**
 * `_` and the first 8 hex digits of sha256 of the name's UTF-8 bytes: what
 * keeps two rewritten names apart when their replaced stems agree. (A lone
 * surrogate is encoded as U+FFFD, as every UTF-8 encoder does.)
 */
export function hashSuffix(name: string): string {
  return `_${sha256Hex(name).slice(0, 8)}`;
}

/**
 * The name the model is shown for a tool whose full name is `full`
 * (`TOOL_NAME_RULE`): a name the Messages API accepts
 * (`^[a-zA-Z0-9_-]{1,64}$`) is kept as it is; any other — too long, a dot,
 * a space, any non-ASCII character, or empty — has every other character
 * replaced by `_`, is cut to 55 characters (all ASCII by then) and gets
 * `hashSuffix(full)`. The result always matches the pattern, is at most 64
 * characters and depends on `full` alone, so every run and `verify` derive
 * the same one. An empty name becomes `_` and its hash (`_e3b0c442`).
 *
 * @example modelToolName('mcp__everything__get-sum') // kept
 * @example modelToolName('mcp__notes__read.file') // 'mcp__notes__read_file_' + 8 hex
 */
export function modelToolName(full: string): string {
  if (MODEL_TOOL_NAME.test(full)) return full;
  return `${replaceOther(full).slice(0, TOOL_NAME_STEM)}${hashSuffix(full)}`;
}
