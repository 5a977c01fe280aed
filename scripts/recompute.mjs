#!/usr/bin/env node
/**
 * Recomputes every hash a caplab run dir holds from the bytes it holds,
 * without caplab: Node's `node:crypto` and `canonicalize` (RFC 8785 JCS, by
 * one of its authors), nothing from src/. README "Hashes" says what each
 * field is the sha256 of; each entry of FIELDS below is one of them.
 *
 * Usage: node scripts/recompute.mjs [--json] [--skills DIR] RUN_DIR_OR_FOLDER…
 *   A folder that is no run dir is searched for run dirs (what `check --out` writes).
 *   --skills DIR  also recompute the method package fields from DIR/<name>/ (data outside the run dir).
 *   --json        one JSON document: { runs, checked: { field: n }, skipped: { field: n }, mismatches: [...] }.
 * Exit 0 when nothing mismatches, 1 when something does, 2 on a usage error.
 *
 * To add a field: append { field, check(run, report) } to FIELDS, where `run`
 * has `dir`, `lines` (the ledger's lines, without `\n`), `events` (parsed),
 * `file(path)` (bytes or undefined), and `report(where, recorded, computed)`
 * records one comparison (`computed` undefined: the data is not in the run
 * dir, counted as skipped); then add the field to README "Hashes".
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import canonicalize from 'canonicalize';

const GENESIS = '0'.repeat(64);
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * JCS, with caplab's one extension: a lone surrogate (not I-JSON), which
 * canonicalize refuses, is written as JSON.stringify writes it (`\udxxx`).
 */
function jcs(value) {
  try {
    return canonicalize(value);
  } catch (error) {
    if (!String(error.message).includes('Lone surrogate')) throw error;
    return loneSafe(value);
  }
}
function loneSafe(value) {
  if (Array.isArray(value)) return `[${value.map(loneSafe).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${loneSafe(value[k])}`).join(',')}}`;
  }
  return typeof value === 'string' ? JSON.stringify(value) : canonicalize(value);
}
const jcsHash = (value) => sha256(jcs(value));

const parse = (bytes) => {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
};
const eventsOf = (run, type) => run.events.filter((e) => e.type === type);
const runStart = (run) => run.events.find((e) => e.type === 'run_start');

/** A binding's id: sha256 of JCS of the binding without its `id`. */
const bindingIdOf = (binding) => jcsHash({ ...binding, id: undefined });

/**
 * Each call's tool_result block as the model was given it: the calls recorded
 * since one request are answered, in order, by the tool_result blocks of the
 * last user message of the next request's payload. A call no later request
 * answers (the run ended) has none.
 */
function toolResults(run) {
  const found = new Map();
  let pending = [];
  for (const event of run.events) {
    if (event.type === 'call') pending.push(event);
    if (event.type !== 'request') continue;
    const payload = event.payload?.path === undefined ? undefined : parse(run.file(event.payload.path) ?? new Uint8Array());
    const last = (payload?.messages ?? []).filter((m) => m.role === 'user').at(-1);
    const blocks = Array.isArray(last?.content) ? last.content.filter((b) => b.type === 'tool_result') : [];
    pending.forEach((call, k) => blocks[k] && found.set(call, blocks[k]));
    pending = [];
  }
  return found;
}

/** The snapshot's source file of an excerpt run: `snapshot/<id>.md`, named in run_start.files. */
const snapshotFile = (run, id) => run.file(`snapshot/${id}.md`);

/** The method text a request's system block carries: instructions after the `<method …>` line, each `<reference path>` body. */
function methodParts(run, request) {
  const payload = parse(run.file(request.payload?.path ?? '') ?? new Uint8Array());
  const text = (Array.isArray(payload?.system) ? payload.system : []).map((b) => b.text ?? '').find((t) => t.startsWith('<method '));
  if (text === undefined) return undefined;
  const start = text.indexOf('>\n') + 2;
  const ends = [text.indexOf('\n<reference path='), text.lastIndexOf('\n</method>')].filter((i) => i >= start);
  const references = new Map();
  for (const match of text.matchAll(/<reference path="([^"]*)"[^>]*>\n([\s\S]*?)\n<\/reference>/g)) references.set(match[1], match[2]);
  return { instructions: text.slice(start, Math.min(...ends)), references };
}

/** Every hash field, in the order README "Hashes" lists them. */
const FIELDS = [
  {
    field: 'ledger.prev',
    check(run, report) {
      run.lines.forEach((line, i) => report(`line ${i + 1}`, run.events[i]?.prev, i === 0 ? GENESIS : sha256(run.lines[i - 1])));
    },
  },
  {
    field: 'ledger.head',
    check(run, report) {
      const seal = parse(run.file('ledger.head') ?? new Uint8Array());
      report('ledger.head head', seal?.head, run.lines.length === 0 ? GENESIS : sha256(run.lines.at(-1)));
      report('ledger.head count', seal?.count, run.lines.length);
    },
  },
  {
    field: 'files[].sha256',
    check(run, report) {
      run.events.forEach((event, i) => {
        for (const ref of Array.isArray(event.files) ? event.files : []) {
          const bytes = run.file(ref.path);
          report(`line ${i + 1} ${ref.path}`, `${ref.sha256} ${ref.bytes}`, bytes === undefined ? 'missing' : `${sha256(bytes)} ${bytes.byteLength}`);
        }
      });
    },
  },
  {
    field: 'request.payload.sha256',
    check(run, report) {
      for (const r of eventsOf(run, 'request')) if (r.payload) report(`${r.request_id} ${r.payload.path}`, r.payload.sha256, sha256(run.file(r.payload.path) ?? 'missing'));
    },
  },
  {
    field: 'run_start.snapshot.sources[].sha256',
    check(run, report) {
      for (const s of runStart(run)?.snapshot?.sources ?? []) report(`source ${s.id}`, s.sha256, snapshotFile(run, s.id) && sha256(snapshotFile(run, s.id)));
    },
  },
  {
    field: 'run_start.snapshot.id',
    check(run, report) {
      const snapshot = runStart(run)?.snapshot;
      if (snapshot) report('snapshot', snapshot.id, `snap-${jcsHash(snapshot.sources.map((s) => [s.id, s.sha256])).slice(0, 16)}`);
    },
  },
  {
    field: 'run_start.bindings[].contract.schemaHash',
    check(run, report) {
      for (const b of runStart(run)?.bindings ?? []) {
        report(`${b.tool} schemaHash`, b.contract.schemaHash, jcsHash(b.contract.schema));
        report(`${b.tool} resultSchemaHash`, b.contract.resultSchemaHash, jcsHash(b.contract.resultSchema));
        report(`${b.tool} model.schemaHash`, b.model.schemaHash, jcsHash(b.model.schema));
      }
    },
  },
  {
    field: 'run_start.bindings[].id',
    check(run, report) {
      for (const b of runStart(run)?.bindings ?? []) report(b.tool, b.id, bindingIdOf(b));
    },
  },
  {
    field: 'request.tools[]',
    check(run, report) {
      const bindings = runStart(run)?.bindings ?? [];
      for (const r of eventsOf(run, 'request')) {
        for (const tool of r.tools ?? []) {
          const b = bindings.find((x) => x.tool === tool.name);
          report(`${r.request_id} ${tool.name} binding_id`, tool.binding_id, b && bindingIdOf(b));
          report(`${r.request_id} ${tool.name} schema_hash`, tool.schema_hash, b && jcsHash(b.contract.schema));
          report(`${r.request_id} ${tool.name} model_schema_hash`, tool.model_schema_hash, b && jcsHash(b.model.schema));
        }
      }
    },
  },
  {
    field: 'call.binding_id',
    check(run, report) {
      const bindings = runStart(run)?.bindings ?? [];
      for (const c of eventsOf(run, 'call')) {
        const b = bindings.find((x) => x.tool === c.name);
        if (c.binding_id === null) continue; // a call of no bound tool (refused at resolve) names none
        report(`${c.action_id}`, c.binding_id, b && bindingIdOf(b));
        const resolve = (c.stages ?? []).find((s) => s.stage === 'resolve' && s.status === 'ok');
        if (resolve) report(`${c.action_id} stages[resolve].detail`, resolve.detail, b && bindingIdOf(b));
      }
    },
  },
  {
    field: 'call.model_content_sha256',
    check(run, report) {
      const results = toolResults(run);
      for (const c of eventsOf(run, 'call')) {
        const block = results.get(c);
        report(c.action_id, c.model_content_sha256, block && jcsHash(block.content));
      }
    },
  },
  {
    field: 'call.hook_text_sha256[]',
    check(run, report) {
      const results = toolResults(run);
      for (const c of eventsOf(run, 'call')) {
        if (!Array.isArray(c.hook_text_sha256)) continue;
        const block = results.get(c);
        const tail = Array.isArray(block?.content) ? block.content.slice(-c.hook_text_sha256.length) : undefined;
        c.hook_text_sha256.forEach((hash, i) => report(`${c.action_id} hook block ${i}`, hash, tail?.[i]?.text === undefined ? undefined : sha256(tail[i].text)));
      }
    },
  },
  {
    field: 'call.outcome.data_sha256',
    check(run, report) {
      const snapshot = runStart(run)?.snapshot;
      const receipt = eventsOf(run, 'acceptance')[0]?.receipt;
      for (const c of eventsOf(run, 'call')) {
        if (c.outcome?.ok !== true) continue;
        const kept = (c.files ?? []).find((f) => f.role === 'call_result');
        let data;
        if (kept) data = parse(run.file(kept.path) ?? new Uint8Array());
        else if (c.name === 'read_source' && snapshot) {
          const id = c.arguments?.converted?.source_id;
          const text = snapshotFile(run, id);
          // All from the snapshot files: the text, its sha256 and size, and the snapshot id they make.
          const files = snapshot.sources.map((s) => [s.id, snapshotFile(run, s.id)]);
          const snapshotId = files.every(([, b]) => b) ? `snap-${jcsHash(files.map(([sid, b]) => [sid, sha256(b)])).slice(0, 16)}` : undefined;
          if (text && snapshotId) data = { source_id: id, text: Buffer.from(text).toString('utf8'), sha256: sha256(text), bytes: text.byteLength, snapshot: snapshotId };
        } else if (c.name === 'create_card' && receipt?.action_id === c.action_id) data = receipt;
        report(c.action_id, c.outcome.data_sha256, data === undefined ? undefined : jcsHash(data));
      }
    },
  },
  {
    field: 'call.outcome.object_version',
    check(run, report) {
      for (const c of eventsOf(run, 'call')) {
        const version = c.outcome?.object_version;
        if (typeof version !== 'string') continue;
        const file = c.name === 'read_source' ? snapshotFile(run, c.arguments?.converted?.source_id) : undefined;
        const card = eventsOf(run, 'acceptance')[0]?.receipt;
        const bytes = file ?? (c.name === 'create_card' && card?.action_id === c.action_id ? run.file(card.path) : undefined);
        report(c.action_id, version, bytes && sha256(bytes));
      }
    },
  },
  {
    field: 'acceptance.card.sha256 and receipt',
    check(run, report) {
      for (const a of eventsOf(run, 'acceptance')) {
        if (a.card) report(`card ${a.card.path}`, a.card.sha256, run.file(a.card.path) && sha256(run.file(a.card.path)));
        if (a.receipt) report(`receipt ${a.receipt.path}`, a.receipt.sha256, run.file(a.receipt.path) && sha256(run.file(a.receipt.path)));
        for (const s of a.receipt?.sources ?? []) report(`receipt source ${s.source_id}`, s.sha256, snapshotFile(run, s.source_id) && sha256(snapshotFile(run, s.source_id)));
      }
    },
  },
  {
    field: 'request.method.instructions_sha256',
    check(run, report) {
      for (const r of eventsOf(run, 'request')) {
        if (!r.method?.instructions_present) continue;
        report(r.request_id, r.method.instructions_sha256, methodParts(run, r) && sha256(methodParts(run, r).instructions));
      }
    },
  },
  {
    field: 'request.method.resources_present[].sha256',
    check(run, report) {
      for (const r of eventsOf(run, 'request')) {
        const parts = r.method ? methodParts(run, r) : undefined;
        for (const res of r.method?.resources_present ?? []) report(`${r.request_id} ${res.path}`, res.sha256, parts?.references.has(res.path) ? sha256(parts.references.get(res.path)) : undefined);
      }
    },
  },
  {
    field: 'method.hash (package, outside the run dir)',
    check(run, report) {
      const method = runStart(run)?.method;
      if (!method?.hash) return;
      const dir = run.skills && join(run.skills, method.name);
      const skill = dir && existsSync(join(dir, 'SKILL.md')) ? readFileSync(join(dir, 'SKILL.md')) : undefined;
      if (skill === undefined) return report(`run_start ${method.name}`, method.hash, undefined);
      const text = skill.toString('utf8');
      const declared = [...new Set([...text.matchAll(/(?:^|[\s"'(])((?:references|scripts|assets)\/[\w./-]+\.\w+)/gm)].map((m) => m[1]))];
      const files = [{ path: 'SKILL.md', sha256: sha256(skill) }, ...declared.filter((p) => existsSync(join(dir, p))).map((p) => ({ path: p, sha256: sha256(readFileSync(join(dir, p))) }))];
      files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      report(`run_start ${method.name}`, method.hash, jcsHash({ format: 'caplab-skill/1', files }));
    },
  },
];

/** A run dir's contents as the checks read them. */
function openRun(dir, skills) {
  const text = readFileSync(join(dir, 'ledger.jsonl'), 'utf8');
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  const file = (path) => {
    const full = join(dir, ...String(path).split('/'));
    try {
      return statSync(full).isFile() ? readFileSync(full) : undefined;
    } catch {
      return undefined;
    }
  };
  return { dir, lines, events: lines.map((line) => parse(Buffer.from(line)) ?? {}), file, skills };
}

/** Run dirs at or under `path` (a folder holding ledger.jsonl is one). */
function runDirs(path) {
  if (existsSync(join(path, 'ledger.jsonl'))) return [path];
  return readdirSync(path, { withFileTypes: true }).filter((e) => e.isDirectory()).flatMap((e) => runDirs(join(path, e.name)));
}

/** Recomputes every field of every run dir under `paths`. */
export function recompute(paths, options = {}) {
  const checked = {};
  const skipped = {};
  const mismatches = [];
  const runs = paths.flatMap(runDirs);
  for (const dir of runs) {
    const run = openRun(dir, options.skills);
    for (const { field, check } of FIELDS) {
      check(run, (where, recorded, computed) => {
        if (computed === undefined) return void (skipped[field] = (skipped[field] ?? 0) + 1);
        checked[field] = (checked[field] ?? 0) + 1;
        if (recorded !== computed) mismatches.push({ run: dir, field, where, recorded: recorded ?? null, computed });
      });
    }
  }
  return { runs: runs.length, checked, skipped, mismatches };
}

function main(argv) {
  const json = argv.includes('--json');
  const at = argv.indexOf('--skills');
  const skills = at >= 0 ? argv[at + 1] : undefined;
  const paths = argv.filter((a, i) => a !== '--json' && !(at >= 0 && (i === at || i === at + 1)));
  if (paths.length === 0 || paths.some((p) => p.startsWith('--')) || (at >= 0 && !skills)) {
    process.stderr.write('usage: node scripts/recompute.mjs [--json] [--skills DIR] RUN_DIR_OR_FOLDER…\n');
    return 2;
  }
  const missing = paths.find((p) => !existsSync(p));
  if (missing) {
    process.stderr.write(`recompute: ${missing}: no such file or folder\n`);
    return 2;
  }
  const result = recompute(paths, { skills });
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    for (const m of result.mismatches) process.stdout.write(`MISMATCH ${m.field} in ${m.run} at ${m.where}: recorded ${m.recorded}, recomputed ${m.computed}\n`);
    const total = Object.values(result.checked).reduce((a, b) => a + b, 0);
    const skippedTotal = Object.values(result.skipped).reduce((a, b) => a + b, 0);
    process.stdout.write(`${result.runs} run dir(s): ${total} hashes recomputed, ${result.mismatches.length} mismatch(es), ${skippedTotal} over data not in the run dir\n`);
  }
  return result.mismatches.length === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
