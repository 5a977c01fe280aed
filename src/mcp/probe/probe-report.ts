/**
 * What leaves probe: every value a server sent, redacted and bounded
 * (`boundText`, `boundValue`), so a report's size grows with the number of
 * values, never with their size or depth.
 */
import { clip, clipChars } from '../../base/index.ts';
import { LIMITS, redactCut, type Redactor } from '../../contract/index.ts';
import type { ProbedCall } from './probe-calls.ts';
import type { ProbeFinding } from './probe-finding.ts';
import type { ProbedTool } from './probe-tools.ts';
import type { ServerInfo } from '../wire/index.ts';
import { reportTask } from './probe-task.ts';
import { boundText, boundValue, type Bounded } from './report-value.ts';

/** The server's `serverInfo`: the fields every revision defines, and the rest as one value. */
export interface ReportedServer {
  readonly name: Bounded<string>;
  readonly version: Bounded<string>;
  readonly title?: Bounded<string>;
  /** 2025-11-25: kept and shown, never fetched (nor is websiteUrl). */
  readonly description?: unknown;
  readonly websiteUrl?: unknown;
  readonly icons?: unknown;
  /** Every other member, as sent (bounded as one value). */
  readonly extras?: unknown;
}

/** One listed tool: its server values bounded, its schemas as hashes. */
export interface ReportedTool {
  readonly name: Bounded<string>;
  readonly title?: Bounded<string>;
  readonly description?: Bounded<string>;
  readonly inputSchemaHash?: string;
  readonly outputSchemaHash?: string;
  /** The server's untrusted hints. */
  readonly annotations?: unknown;
  readonly icons?: unknown;
  /** `execution.taskSupport` as sent (2025-11-25). */
  readonly taskSupport?: unknown;
}

/** One call: how it ended, with what the server sent bounded. */
export interface ReportedCall extends Omit<ProbedCall, 'tool' | 'content' | 'text' | 'findings'> {
  readonly tool: Bounded<string>;
  /** The result's content blocks, as one value. */
  readonly content?: unknown;
  /** The first text block's text. */
  readonly text?: Bounded<string>;
  readonly findings: readonly ProbeFinding[];
}

const KNOWN_SERVER = new Set(['name', 'version', 'title', 'description', 'websiteUrl', 'icons']);

export function reportServer(info: ServerInfo, redactor: Redactor): ReportedServer {
  const extras = Object.entries(info).filter(([key]) => !KNOWN_SERVER.has(key));
  return {
    name: boundText(info.name, redactor),
    version: boundText(info.version, redactor),
    ...(info.title !== undefined ? { title: boundText(info.title, redactor) } : {}),
    ...('description' in info ? { description: boundValue(info['description'], redactor) } : {}),
    ...('websiteUrl' in info ? { websiteUrl: boundValue(info['websiteUrl'], redactor) } : {}),
    ...('icons' in info ? { icons: boundValue(info['icons'], redactor) } : {}),
    ...(extras.length > 0 ? { extras: boundValue(Object.fromEntries(extras), redactor) } : {}),
  };
}

export function reportTool(tool: ProbedTool, redactor: Redactor): ReportedTool {
  return {
    name: boundText(tool.name, redactor),
    ...(tool.title !== undefined ? { title: boundText(tool.title, redactor) } : {}),
    ...(tool.description !== undefined ? { description: boundText(tool.description, redactor) } : {}),
    ...(tool.inputSchemaHash !== undefined ? { inputSchemaHash: tool.inputSchemaHash } : {}),
    ...(tool.outputSchemaHash !== undefined ? { outputSchemaHash: tool.outputSchemaHash } : {}),
    ...(tool.annotations !== undefined ? { annotations: boundValue(tool.annotations, redactor) } : {}),
    ...(tool.icons !== undefined ? { icons: boundValue(tool.icons, redactor) } : {}),
    ...(tool.taskSupport !== undefined ? { taskSupport: boundValue(tool.taskSupport, redactor) } : {}),
  };
}

export function reportCall(call: ProbedCall, redactor: Redactor): ReportedCall {
  const { tool, content, text, findings, contentTypes, task, ...rest } = call;
  return {
    ...rest,
    ...(task !== undefined ? { task: reportTask(task, redactor) } : {}),
    tool: boundText(tool, redactor),
    ...(contentTypes !== undefined ? { contentTypes: contentTypes.map((type) => clipChars(redactor.redact(type), LIMITS.evidenceChars)) } : {}),
    ...(content !== undefined ? { content: boundValue(content, redactor) } : {}),
    ...(text !== undefined ? { text: boundText(text, redactor) } : {}),
    findings: findings.map((f) => reportFinding(f, redactor)),
  };
}

/**
 * A finding as reported: its tool bounded; its message (caplab's words, which
 * may quote the server) cut at `reportValueBytes`; its evidence, already cut
 * at `evidenceChars`, redacted — and where it was cut, trimmed of any end
 * that could begin a placed value (`redactCut`).
 */
export function reportFinding(f: ProbeFinding, redactor: Redactor): ProbeFinding {
  const cut = f.evidence.endsWith('…');
  const evidence = cut ? `${redactCut(redactor, f.evidence.slice(0, -1), 'end').replace(/…$/, '')}…` : redactor.redact(f.evidence);
  return {
    ...f,
    message: clipText(redactor.redact(f.message), LIMITS.reportValueBytes),
    ...(typeof f.tool === 'string' ? { tool: boundText(f.tool, redactor) } : {}),
    evidence,
  };
}

/** The end of the server's stderr the report keeps: its last `reportValueBytes`, trimmed like a cut evidence at its start. */
export function reportStderr(tail: string, redactor: Redactor): string {
  const kept = clip(tail, LIMITS.reportValueBytes, 'tail');
  const redacted = redactCut(redactor, kept, kept.length < tail.length ? 'start' : 'none');
  // A marker can be longer than the value it replaces: cut again, so the bound holds whatever was redacted
  // (at worst the first marker kept is cut at its start, which shows no value).
  return clip(redacted, LIMITS.reportValueBytes, 'tail');
}

/** Text cut to `maxBytes` of UTF-8, the cut marked `…`. */
function clipText(text: string, maxBytes: number): string {
  const kept = clip(text, maxBytes, 'head');
  return kept.length < text.length ? `${kept}…` : text;
}
