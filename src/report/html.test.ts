import { expect, test } from 'bun:test';
import { escapeText, html, idAttr, join, linkTo, markupOf } from './html.ts';

test('every hole is text: markup, quotes, a script end and a comment opener come out escaped', () => {
  const hostile = `<img src=x onerror=alert(1)></script><!--"'>&`;
  expect(markupOf(html`<p title="x">${hostile}</p>`)).toBe('<p title="x">&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;!--&quot;&#39;&gt;&amp;</p>');
  // Numbers, lists and nothing; a nested html value is kept as markup.
  expect(markupOf(html`${1}${['<a>', html`<b>${'<c>'}</b>`]}${undefined}${null}${false}`)).toBe('1&lt;a&gt;<b>&lt;c&gt;</b>');
  expect(markupOf(join([html`<i>1</i>`, html`<i>2</i>`], html`, `))).toBe('<i>1</i>, <i>2</i>');
});

test('control and bidi characters show as visible escapes; tab and newline stay', () => {
  const text = 'a\u202Eb\u2066c\u2069d\u0000e\u001Bf\u007Fg\u0085h\u200Fi\uFEFFj\tk\nl';
  expect(escapeText(text)).toBe(
    'a<span class="esc">\\u202E</span>b<span class="esc">\\u2066</span>c<span class="esc">\\u2069</span>d<span class="esc">\\u0000</span>e<span class="esc">\\u001B</span>f<span class="esc">\\u007F</span>g<span class="esc">\\u0085</span>h<span class="esc">\\u200F</span>i<span class="esc">\\uFEFF</span>j\tk\nl',
  );
  for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) expect(escapeText(String.fromCharCode(code))).toContain(`\\u${code.toString(16).toUpperCase()}`);
  // A lone surrogate is no character: shown as its escape; a pair is kept.
  expect(escapeText('x\uD800y\uDC00z')).toBe('x<span class="esc">\\uD800</span>y<span class="esc">\\uDC00</span>z');
  expect(escapeText('😀')).toBe('😀');
});

test('ids and links come from a count of our own, never from text', () => {
  expect(markupOf(idAttr(7))).toBe('id="e7"');
  expect(markupOf(idAttr(-3.5))).toBe('id="e0"');
  expect(markupOf(linkTo(4, '<seq 4>'))).toBe('<a href="#e4">&lt;seq 4&gt;</a>');
});
