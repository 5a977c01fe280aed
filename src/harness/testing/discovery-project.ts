/**
 * Test kit for dynamic discovery (discovery.test.ts, discovery-checks.test.ts):
 * a project folder with docs, a --skills folder and a nested
 * `.claude/skills/`, a task with a local `open_file {path}` tool and
 * `write_note`, and a tool-mode run of a script over it. Test code only.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as v from 'valibot';
import { scratchDir } from '../../../test/scratch.ts';
import { ok, readBounded, type Contract } from '../../contract/index.ts';
import { fixedClock, verify } from '../../ledger/index.ts';
import { textBlock } from '../../pipeline/index.ts';
import type { AcceptanceCheck } from '../acceptance.ts';
import { defineTool } from '../define-tool.ts';
import { createHost, type HostOptions } from '../host.ts';
import { recheckAcceptance } from '../recheck.ts';
import { Scenario, scriptedModel } from '../scenario.ts';
import type { Task } from '../task.ts';
import { localProvider } from '../tools.ts';

const usage = { input_tokens: 1, output_tokens: 1 };

const openFileContract = {
  name: 'open_file',
  version: '1.0.0',
  discovery: 'Open a file of the project and return its text (read-only).',
  description: 'Returns the text of the file at `path`, relative to the project.',
  input: v.strictObject({ path: v.string() }),
  result: v.strictObject({ text: v.string() }),
  effect: 'read',
  readOnly: true,
  destructive: false,
  idempotent: true,
  concurrencySafe: true,
  openWorld: false,
  identity: 'the test; no credential',
  preconditions: [],
  limits: { timeoutMs: 10_000, maxResultBytes: 65_536 },
  completionEvidence: 'bytes observed now: the file',
  errorClasses: ['invalid_arguments', 'permission_denied', 'precondition'],
} as const satisfies Contract;
const writeNoteContract = { ...openFileContract, name: 'write_note', discovery: 'Write a note.', description: 'Writes a note.', effect: 'create', readOnly: false, idempotent: false } as const satisfies Contract;

/** The task over one project folder: open_file reads under it (a missing file is a precondition failure), write_note writes nothing. */
export function projectTask(cwd: string): Task {
  const openFile = defineTool({
    contract: openFileContract,
    version: 'open_file/1',
    handler: async ({ path }) => {
      // A missing file is the contract's precondition/not_found.
      const read = readBounded(resolve(cwd, path), 65_536);
      return read.ok ? ok({ data: { text: new TextDecoder().decode(read.value) }, content: [textBlock('opened')], evidence: 'bytes observed now' }) : read;
    },
  });
  const writeNote = defineTool({ contract: writeNoteContract, version: 'write_note/1', handler: async () => ok({ data: { text: '' }, content: [textBlock('written')], evidence: 'bytes observed now' }) });
  const checks: AcceptanceCheck[] = [{ id: 'ran', object: 'run', condition: 'it ran', evidence: 'it ran', verdict: 'pass' }];
  return {
    id: 'project',
    prompt: { user: 'Open the docs.', rule: 'Use the tools.' },
    tools: () => [localProvider([openFile, writeNote])],
    acceptance: { live: () => ({ checks, files: [], fields: {} }), recorded: () => ok(checks) },
  };
}

export function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/**
 * A project: docs/a/b.md, a --skills folder with `always` (listed) and
 * `doc-style` (held by `paths: docs/**\/*.md`, its allowed-tools naming
 * write_note), and a nested docs/a/.claude/skills/ with `nested-notes`.
 */
export function project(cwd: string = scratchDir('caplab-discovery-')): string {
  put(join(cwd, 'docs/a/b.md'), '# b\n');
  put(join(cwd, 'skills/always/SKILL.md'), '---\ndescription: Always listed.\n---\nAlways body.\n');
  put(join(cwd, 'skills/doc-style/SKILL.md'), '---\ndescription: How docs are written.\npaths: docs/**/*.md\nallowed-tools: open_file write_note\n---\nDoc style body.\n');
  put(join(cwd, 'docs/a/.claude/skills/nested-notes/SKILL.md'), '---\ndescription: Notes for docs/a.\n---\nNested body.\n');
  return cwd;
}

export type Call = { id: string; name: string; arguments: unknown };
/** A script: one response per list of calls, then a final text. */
export const script = (...turns: Call[][]) =>
  scriptedModel(v.parse(Scenario, { name: 'discovery', description: 'discovery', expect: { accepted: true }, responses: [...turns.map((calls) => ({ tool_calls: calls, usage })), { text: 'done', usage }] }));
export const open = (id: string, path: unknown): Call => ({ id, name: 'open_file', arguments: { path } });

/** Runs the task in tool mode on `cwd` and returns each request's recorded skill_catalog, each call's outcome, the ledger's events and verify's verdict. */
export async function run(cwd: string, options: HostOptions, ...turns: Call[][]) {
  const task = projectTask(cwd);
  const host = createHost({ cwd, skillDirs: ['skills'], ...options });
  const ran = await host.run(task, script(...turns), { skillMode: 'tool', runId: 'r', runDir: 'run', clock: fixedClock(0) });
  if (!ran.ok) throw new Error(`${ran.kind}: ${ran.message}`);
  const events = readFileSync(join(cwd, 'run/ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown> & { type: string });
  const verified = verify(join(cwd, 'run'), { recheck: recheckAcceptance(task) });
  return {
    catalogs: events.filter((e) => e.type === 'request').map((e) => e['skill_catalog']),
    outcomes: ran.value.loop.calls.map((c) => (c.outcome.ok ? `${c.name} ok` : `${c.name} ${c.outcome.class}/${c.outcome.kind}`)),
    events,
    verified: verified.ok ? 'verified' : `${verified.kind}: ${verified.message}`,
  };
}

