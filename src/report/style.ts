/**
 * The page's one stylesheet, inline (the CSP allows inline style and nothing
 * else). Light and dark follow `prefers-color-scheme`; every text colour is
 * at least 4.5:1 on its background in both. Nothing may be wider than the
 * viewport: long hashes and paths wrap anywhere, `<pre>` wraps, tables are
 * fixed-layout, the argument columns and the stage strip wrap.
 */
export const STYLE = `
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1b1b1b;--muted:#545454;--panel:#f4f4f5;--line:#c8c8cc;--ok:#0b6b2e;--bad:#a5001e;--link:#0645ad;--okbg:#e6f4ea;--badbg:#fde8ea;--nrbg:#ececee}
@media (prefers-color-scheme:dark){:root{--bg:#15171b;--fg:#e8e8ea;--muted:#b3b3b8;--panel:#22252b;--line:#4a4d55;--ok:#7ad695;--bad:#ff9aa6;--link:#9cc2ff;--okbg:#1d3326;--badbg:#3d1f24;--nrbg:#2b2e35}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg)}
body{margin:0 auto;max-width:72rem;padding:1rem;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg);overflow-wrap:anywhere}
h1{font-size:1.4rem;margin:.2rem 0 1rem}h2{font-size:1.15rem;margin:1.6rem 0 .6rem;border-bottom:1px solid var(--line)}h3{font-size:1rem;margin:.9rem 0 .3rem}h4{font-size:.9rem;margin:0 0 .2rem;color:var(--muted)}
a{color:var(--link)}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--panel);color:var(--fg);padding:.5rem;margin:.2rem 0;border-radius:4px;max-width:100%}
.hash{overflow-wrap:anywhere;word-break:break-all}
.esc{border:1px solid var(--bad);color:var(--bad);border-radius:3px;padding:0 .15em;font-family:ui-monospace,monospace}
.muted,.note{color:var(--muted)}.note{font-size:.9rem;margin:.2rem 0}
.badge{display:inline-block;border:1px solid var(--line);border-radius:4px;padding:0 .35em;font-size:.85rem}
.badge.ok{color:var(--ok);border-color:var(--ok);background:var(--okbg)}.badge.bad{color:var(--bad);border-color:var(--bad);background:var(--badbg)}
.unverified{font-size:.8rem;font-weight:normal;color:var(--bad);border:1px solid var(--bad);border-radius:4px;padding:0 .3em;margin-left:.4em}
.verdict{border:2px solid var(--line);border-radius:6px;padding:.3rem .9rem}.verdict.ok{border-color:var(--ok)}.verdict.bad{border-color:var(--bad)}
.verdict-line{font-size:1.15rem;font-weight:600}.verdict.ok .verdict-line{color:var(--ok)}.verdict.bad .verdict-line{color:var(--bad)}
.cut{border:2px dashed var(--bad);padding:.3rem .9rem;border-radius:6px}
dl.facts{display:grid;grid-template-columns:minmax(6rem,12rem) minmax(0,1fr);gap:.1rem .8rem;margin:.3rem 0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;min-width:0}
@media (max-width:40rem){dl.facts{grid-template-columns:minmax(0,1fr)}dl.facts dd{margin-bottom:.3rem}}
table{width:100%;table-layout:fixed;border-collapse:collapse;margin:.3rem 0}
th,td{border:1px solid var(--line);padding:.2rem .4rem;text-align:left;vertical-align:top;overflow-wrap:anywhere;word-break:break-word}
th{background:var(--panel)}
details{border:1px solid var(--line);border-radius:6px;padding:.2rem .6rem;margin:.4rem 0;min-width:0}
details>summary{cursor:pointer;padding:.2rem 0}
summary:focus-visible{outline:2px solid var(--link);outline-offset:2px}
.children{margin-left:.4rem}
.call{background:var(--bg)}
.strip{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;padding:0;margin:.4rem 0}
.stage{border:1px solid var(--line);border-radius:4px;padding:.05rem .35rem;font-size:.85rem;min-width:0}
.stage.ok{color:var(--ok);border-color:var(--ok);background:var(--okbg)}.stage.failed{color:var(--bad);border-color:var(--bad);background:var(--badbg);font-weight:600}.stage.not-reached{color:var(--muted);background:var(--nrbg);border-style:dashed}
.stage-detail{display:block;font-size:.78rem;color:var(--muted)}.stage.ok .stage-detail,.stage.failed .stage-detail{color:inherit}
.args{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,16rem),1fr));gap:.5rem}.arg{min-width:0}
.response{border-left:3px solid var(--line);padding-left:.6rem;margin:.4rem 0}
.raw{border-color:var(--bad)}
ul{padding-left:1.2rem}
`;
