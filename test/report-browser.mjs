// caplab report's browser checks, run by Node (Playwright under Bun has a history of launch hangs) as a
// child of test/report-browser.test.ts. It opens each page of the manifest by file:// in Debian's
// chromium and prints one JSON document of what it measured; the bun test makes every assertion.
// Usage: node test/report-browser.mjs MANIFEST.json  (MANIFEST: { pages: [{ name, file }], shots?: DIR })
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const WIDTHS = [390, 1280];
const SCHEMES = ['light', 'dark'];

/** What the DOM says of the page: verdict, forbidden elements, links, call strips, request sources. */
function domFacts() {
  const text = (el) => (el ? el.textContent.replace(/\s+/g, ' ').trim() : null);
  const ids = new Set([...document.querySelectorAll('[id]')].map((el) => el.id));
  const anchors = [...document.querySelectorAll('a')].map((a) => a.getAttribute('href'));
  const callOf = (el) => (el ? { name: text(el.querySelector(':scope > summary b')), summary: text(el.querySelector(':scope > summary')), id: el.id } : null);
  return {
    verdict: text(document.querySelector('.verdict-line')),
    verdictKind: document.querySelector('.verdict-line')?.getAttribute('data-verdict') ?? null,
    forbidden: ['img', 'script', 'iframe', 'object', 'embed', 'form', 'link', 'base', 'svg', 'math'].map((tag) => [tag, document.getElementsByTagName(tag).length]).filter(([, n]) => n > 0),
    csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null,
    hrefs: anchors,
    brokenLinks: anchors.filter((href) => !href || !href.startsWith('#') || !ids.has(href.slice(1))),
    attributes: [...new Set([...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.name)))].sort(),
    unverified: document.querySelectorAll('.unverified').length,
    sections: document.querySelectorAll('section h2').length,
    raw: document.querySelectorAll('.raw').length,
    calls: [...document.querySelectorAll('details.call')].map((el) => ({
      ...callOf(el),
      stages: [...el.querySelectorAll(':scope > .strip > .stage')].map((li) => [li.getAttribute('data-stage'), li.getAttribute('data-status'), text(li.querySelector('.stage-why'))]),
    })),
    requests: [...document.querySelectorAll('details.request')].map((el) => ({
      summary: text(el.querySelector(':scope > summary')),
      sources: [...el.querySelectorAll(':scope > .sources > li')].map((li) => {
        const href = li.querySelector('a')?.getAttribute('href');
        return { text: text(li), source: text(li.querySelector('b')), linked: href ? callOf(document.getElementById(href.slice(1))) : null };
      }),
    })),
    bodyText: document.body.innerText,
    summaries: document.querySelectorAll('summary').length,
  };
}

/** Luminance contrast of every element with text of its own, against the first opaque background behind it. */
function contrast() {
  const rgb = (s) => (s.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const background = (el) => {
    for (let at = el; at; at = at.parentElement) {
      const c = rgb(getComputedStyle(at).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] === 1)) return c.slice(0, 3);
    }
    return rgb(getComputedStyle(document.documentElement).backgroundColor).slice(0, 3);
  };
  let worst = { ratio: Infinity, what: null };
  let checked = 0;
  for (const el of document.body.querySelectorAll('*')) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '')) continue;
    const fg = rgb(getComputedStyle(el).color).slice(0, 3);
    const [a, b] = [lum(fg), lum(background(el))].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    checked++;
    if (ratio < worst.ratio) worst = { ratio, what: `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 40)}"` };
  }
  const body = (() => {
    const [a, b] = [lum(rgb(getComputedStyle(document.body).color)), lum(background(document.body))].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  })();
  return { body, worst: worst.ratio, worstWhat: worst.what, checked };
}

/** Which summary has focus, by its place among all summaries (-1 for anything else). */
const focused = () => [...document.querySelectorAll('summary')].indexOf(document.activeElement);

async function layouts(page, name, shots) {
  const out = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth, background: getComputedStyle(document.body).backgroundColor }));
      const colours = await page.evaluate(contrast);
      if (shots) {
        await page.screenshot({ path: join(shots, `${name}-${width}-${scheme}.png`), fullPage: true });
        await page.screenshot({ path: join(shots, `${name}-${width}-${scheme}-top.png`) });
      }
      out.push({ scheme, width, ...size, contrast: colours });
    }
  }
  return out;
}

/** Tab from the top: the summaries focus reaches, in the order it reaches them (every details open). */
async function tabOrder(page, summaries, links) {
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  const seen = [];
  for (let i = 0; i < summaries + links + 2; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(focused);
    // Focus back at or before a summary already reached: it went round the page.
    if (at >= 0 && seen.length > 0 && at <= seen[seen.length - 1]) break;
    if (at >= 0) seen.push(at);
  }
  return seen;
}

async function visit(context, entry, shots) {
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  page.on('pageerror', (error) => errors.push(String(error)));
  const url = pathToFileURL(entry.file).href;
  await page.goto(url, { waitUntil: 'load' });
  // Every <details> open, as a reader who expands everything sees it.
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  const dom = await page.evaluate(domFacts);
  const layout = await layouts(page, entry.name, shots);
  const tabs = await tabOrder(page, dom.summaries, dom.hrefs.length);
  await page.close();
  return { name: entry.name, url, requests, errors, dom, layout, tabs };
}

const manifest = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const profile = mkdtempSync(join(tmpdir(), 'caplab-chromium-'));
let context;
try {
  context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', headless: true, args: FLAGS, offline: true });
  const pages = [];
  for (const entry of manifest.pages) pages.push(await visit(context, entry, manifest.shots));
  process.stdout.write(`${JSON.stringify({ browser: context.browser()?.version() ?? 'chromium', pages })}\n`);
} finally {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
}
