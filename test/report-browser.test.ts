/**
 * caplab report in a real browser (issue 31): Debian's chromium, driven by
 * playwright-core from Node (test/report-browser.mjs, a child process: Playwright
 * under Bun has a history of launch hangs). The child only measures; every
 * assertion is here. Without /usr/bin/chromium this fails under CI=true and
 * is skipped otherwise, saying why. CAPLAB_REPORT_SHOTS=DIR keeps the screenshots.
 */
import { expect, test } from 'bun:test';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../src/cli/cli.ts';
import { testIo } from '../src/cli/test-io.ts';
import { scratchDir } from './scratch.ts';

const CHROMIUM = '/usr/bin/chromium';
const root = join(import.meta.dir, '..');
const present = existsSync(CHROMIUM);
const ci = process.env['CI'] === 'true';
if (!present) console.log(`test/report-browser.test.ts: ${CHROMIUM} is absent (apt-get install -y chromium); ${ci ? 'CI=true: failing' : 'skipping the browser tests'}`);

/** The hostile text of test/report-hostile: markup, a script end, a comment opener, a quote-breaker, U+202E. */
const HOSTILE = `<img src=x onerror=alert(1)></script><!--"'>\u202Eevil`;
/** How the page shows it: as text, U+202E as a visible escape. */
const SHOWN = HOSTILE.replace('\u202E', '\\u202E');

async function caplab(cwd: string, ...argv: string[]): Promise<number> {
  const io = testIo(cwd);
  return cli(argv, io);
}

interface Measured {
  readonly pages: readonly {
    name: string;
    url: string;
    requests: string[];
    errors: string[];
    tabs: number[];
    dom: { verdict: string; verdictKind: string; attributes: string[]; forbidden: unknown[]; csp: string; hrefs: string[]; brokenLinks: string[]; unverified: number; sections: number; raw: number; summaries: number; bodyText: string; calls: { name: string; id: string; stages: [string, string, string][] }[]; requests: { summary: string; sources: { source: string; linked: { name: string; id: string } | null }[] }[] };
    layout: { scheme: string; width: number; scrollWidth: number; clientWidth: number; background: string; contrast: { body: number; worst: number; worstWhat: string; checked: number } }[];
  }[];
}

/** The run dirs the checks need, each with its page. */
async function prepare(dir: string): Promise<Record<string, { run: string; page: string }>> {
  const runs = { demo: join(dir, 'demo-mcp'), 'same-batch': join(dir, 'same-batch'), tampered: join(dir, 'tampered'), hostile: join(dir, 'hostile') };
  expect(await caplab(dir, 'demo', '--out', runs.demo, '--run-id', 'browser-demo')).toBe(0);
  expect(await caplab(dir, 'run', '--scenario', 'same-batch', '--transport', 'local', '--out', runs['same-batch'], '--run-id', 'browser-same-batch')).toBe(1);
  cpSync(runs.demo, runs.tampered, { recursive: true });
  const payload = join(runs.tampered, 'requests/02-request.json');
  const bytes = readFileSync(payload);
  bytes[40] = bytes[40]! ^ 0x01;
  writeFileSync(payload, bytes);
  const hostile = join(root, 'test/report-hostile');
  expect(await caplab(dir, 'run', '--scenario', join(hostile, 'hostile.scenario.json'), '--settings', join(hostile, 'hostile.settings.json'), '--transport', 'local', '--out', runs.hostile, '--run-id', 'browser-hostile')).toBe(1);
  const out: Record<string, { run: string; page: string }> = {};
  for (const [name, run] of Object.entries(runs)) {
    const page = join(dir, `${name}.report.html`);
    expect({ name, code: await caplab(dir, 'report', run, '--out', page) }).toEqual({ name, code: name === 'tampered' ? 1 : 0 });
    out[name] = { run, page };
  }
  return out;
}

/** Runs the Node child over the pages and parses what it measured. */
async function measure(dir: string, pages: Record<string, { page: string }>): Promise<Measured> {
  const manifest = join(dir, 'manifest.json');
  const shots = process.env['CAPLAB_REPORT_SHOTS'];
  writeFileSync(manifest, JSON.stringify({ pages: Object.entries(pages).map(([name, { page }]) => ({ name, file: page })), ...(shots ? { shots } : {}) }));
  const child = Bun.spawn(['node', join(root, 'test/report-browser.mjs'), manifest], { cwd: root, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return JSON.parse(out) as Measured;
}

const stagesOf = (call: Record<string, unknown>): [string, string, string][] => {
  const STAGES = ['resolve', 'convert', 'validate', 'pre_hooks', 'permission', 'handler', 'result_validate', 'output_limit', 'post_hooks'];
  const recorded = call['stages'] as { stage: string; status: string }[];
  const outcome = call['outcome'] as { ok: boolean; class?: string; kind?: string };
  return STAGES.map((stage) => {
    const status = recorded.find((r) => r.stage === stage)?.status;
    if (status === 'ok') return [stage, 'ok', 'ok'];
    if (status === 'failed') return [stage, 'failed', `${outcome.class}/${outcome.kind}`];
    return [stage, 'not-reached', 'not reached'];
  });
};

test.skipIf(!present && !ci)('in chromium: verdicts, call strips, links, hostile text as text, no request, no console error, no overflow, contrast, Tab order', async () => {
  expect({ chromium: present }).toEqual({ chromium: true });
  const dir = scratchDir('caplab-report-browser-');
  const pages = await prepare(dir);
  const measured = await measure(dir, pages);
  const page = (name: string) => measured.pages.find((p) => p.name === name)!;

  expect(page('demo').dom.verdict).toBe('✓ verifies — accepted (re-computed)');
  expect(page('same-batch').dom.verdict).toBe('✓ verifies — not accepted (re-computed)');
  expect(page('tampered').dom.verdict).toStartWith('✗ does not verify: evidence/hash_mismatch at requests/02-request.json');
  expect(page('tampered').dom.unverified).toBe(page('tampered').dom.sections);
  expect(page('demo').dom.unverified).toBe(0);

  // same-batch's strips are its record's stages: ok, failed with class/kind, not reached.
  const recorded = readFileSync(join(pages['same-batch']!.run, 'ledger.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'call');
  expect(page('same-batch').dom.calls.map((c) => [c.name, c.id, c.stages])).toEqual(recorded.map((c) => [c.name, `e${c.seq}`, stagesOf(c)]));
  expect(page('same-batch').dom.calls.flatMap((c) => c.stages.filter((s) => s[1] === 'failed'))).toEqual([['validate', 'failed', 'precondition/sources_not_disclosed']]);

  // The demo's second request disclosed alpha and beta, each linked to the read_source call that read it.
  const second = page('demo').dom.requests[1]!;
  expect(second.sources.map((s) => [s.source, s.linked?.name])).toEqual([['alpha', 'read_source'], ['beta', 'read_source']]);
  expect(new Set(second.sources.map((s) => s.linked?.id)).size).toBe(2);

  // Hostile text is text: the tool name, the quote and the hook's block reason, each visible as written.
  const hostile = page('hostile').dom;
  expect(hostile.bodyText).toContain(`call ${SHOWN}`);
  expect(hostile.bodyText).toContain(`blocked by ${SHOWN}`);
  expect(hostile.bodyText).toContain(`"quote": "${SHOWN.replace(/"/g, '\\"')}"`);
  expect(hostile.bodyText.includes('\u202E')).toBe(false);

  for (const p of measured.pages) {
    expect({ name: p.name, forbidden: p.dom.forbidden, broken: p.dom.brokenLinks, external: p.dom.hrefs.filter((h) => !h.startsWith('#')), raw: p.dom.raw }).toEqual({ name: p.name, forbidden: [], broken: [], external: [], raw: 0 });
    expect(p.dom.csp).toBe("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'");
    expect(p.dom.attributes.filter((a: string) => ['src', 'style', 'srcset', 'action', 'formaction', 'background', 'poster'].includes(a) || a.startsWith('on'))).toEqual([]);
    expect({ name: p.name, requests: p.requests, errors: p.errors }).toEqual({ name: p.name, requests: [p.url], errors: [] });
    expect(p.layout).toHaveLength(4);
    for (const l of p.layout) {
      expect({ name: p.name, scheme: l.scheme, width: l.width, overflow: l.scrollWidth > l.clientWidth }).toEqual({ name: p.name, scheme: l.scheme, width: l.width, overflow: false });
      expect({ name: p.name, scheme: l.scheme, width: l.width, body: l.contrast.body >= 4.5, worst: l.contrast.worst >= 4.5 ? 'ok' : l.contrast.worstWhat }).toEqual({ name: p.name, scheme: l.scheme, width: l.width, body: true, worst: 'ok' });
      expect(l.contrast.checked).toBeGreaterThan(50);
    }
    // Light and dark are different pages to look at.
    expect(new Set(p.layout.map((l) => l.background)).size).toBe(2);
    expect(p.tabs).toEqual([...Array(p.dom.summaries).keys()]);
  }
}, 600_000);
