/**
 * The library surface (SPEC F-HOST): README's "Use as a library" example runs
 * as printed, and everything it uses is reachable through package.json
 * `exports` alone (the package's self-reference, `caplab/…`).
 */
import { expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pkg from '../package.json' with { type: 'json' };

const root = join(import.meta.dir, '..');

/** The ts code block and the text block after it in README's "Use as a library" section. */
function readmeExample(): { code: string; output: string } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Use as a library\n'));
  if (!section) throw new Error('README has no "Use as a library" section');
  const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]! }));
  expect(blocks.map((b) => b.lang)).toEqual(['ts', 'text']);
  return { code: blocks[0]!.body, output: blocks[1]!.body };
}

/** `import { a, type B, c } from 'caplab/x'` → { 'caplab/x': ['a', 'c'] }: the values the example takes. */
function valueImports(code: string): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const m of code.matchAll(/^import\s*\{([^}]*)\}\s*from\s*'(caplab\/[^']+)'/gm)) {
    const names = m[1]!.split(',').map((n) => n.trim()).filter((n) => n !== '' && !n.startsWith('type '));
    found[m[2]!] = [...(found[m[2]!] ?? []), ...names];
  }
  return found;
}

/** Runs `code` as a file inside the checkout, so `caplab/…` resolves through this package.json's exports (its self-reference). */
function runInCheckout(code: string): { code: number; stdout: string; stderr: string } {
  const dir = join(root, '.tmp', `library-example-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, 'example.ts'), code);
    const run = Bun.spawnSync([process.execPath, join(dir, 'example.ts')], { cwd: dir, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
    return { code: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("README's library example runs from inside the checkout and prints what README says", () => {
  const { code, output } = readmeExample();
  expect(runInCheckout(code)).toEqual({ code: 0, stdout: output, stderr: '' });
});

test("the example's keepOutput counts a kept text's size in UTF-8 bytes, not UTF-16 code units", () => {
  const text = 'Grüße, 世界 🌍';
  // The example as printed, then one question to its pipeline: what size does it record for non-ASCII text?
  const run = runInCheckout(`${readmeExample().code}\nconsole.log('kept', pipeline.keepOutput('act-9', ${JSON.stringify(text)}).bytes);\n`);
  expect([run.code, run.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, `kept ${new TextEncoder().encode(text).byteLength}`]);
});

test('the example imports caplab only through the exports map', () => {
  const { code } = readmeExample();
  const specifiers = [...code.matchAll(/from\s*'([^']+)'/g)].map((m) => m[1]!);
  expect(specifiers.filter((s) => s !== 'valibot' && !s.startsWith('caplab/'))).toEqual([]);
  const subpaths = Object.keys(valueImports(code)).map((s) => `./${s.slice('caplab/'.length)}`);
  expect(subpaths.length).toBeGreaterThan(0);
  for (const subpath of subpaths) expect(Object.keys(pkg.exports)).toContain(subpath);
});

test('every exports entry resolves through the package name and exposes what the example uses', async () => {
  const used = valueImports(readmeExample().code);
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const specifier = `caplab/${subpath.slice(2)}`;
    expect(Bun.resolveSync(specifier, import.meta.dir)).toBe(join(root, target));
    const surface: Record<string, unknown> = await import(specifier);
    expect(Object.keys(surface).length).toBeGreaterThan(0);
    for (const name of used[specifier] ?? []) expect({ name, defined: surface[name] !== undefined }).toEqual({ name, defined: true });
  }
});

test("the section's bullets name only what their entry exports (values and types)", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Use as a library\n'))!;
  const bullets = [...section.matchAll(/^- `caplab\/(\w+)`([\s\S]*?)(?=^- |^\n)/gm)];
  expect(bullets.map((b) => b[1])).toEqual(['pipeline', 'mcp', 'harness']);
  for (const [, folder, text] of bullets) {
    const surface = readFileSync(join(root, 'src', folder!, 'index.ts'), 'utf8');
    const exported = new Set([...surface.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)].flatMap((m) => m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, ''))));
    for (const m of surface.matchAll(/^export\s+(?:async\s+)?(?:function|const|class|interface|type)\s+(\w+)/gm)) exported.add(m[1]!);
    const named = [...text!.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect({ folder, name, exported: exported.has(name) }).toEqual({ folder, name, exported: true });
  }
});
