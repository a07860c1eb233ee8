/**
 * The report's only stylesheet, inlined into every document. Colours were picked for contrast
 * (body text about 17:1, badge text on its tint at least 8:1, bars at least 4.5:1 on white; style.test.ts checks them), and
 * every colour is paired with an icon and a word, so nothing is said by colour alone.
 */
export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --soft: #f4f5f7; --accent: #1d4ed8; }
* { box-sizing: border-box; }
html { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }
body { margin: 0; overflow-wrap: break-word; }
a { color: #1e40af; }
a:focus-visible, pre:focus-visible, summary:focus-visible, .table-wrap:focus-visible { outline: 3px solid #1e40af; outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 0; background: #fff; padding: .5rem; }
.skip:focus { left: .5rem; }
header.report-head { padding: 1.25rem 2rem 1rem; border-bottom: 1px solid var(--line); background: var(--soft); }
header.report-head h1 { margin: 0 0 .35rem; font-size: 1.6rem; }
main { padding: 1rem 2rem 2rem; max-width: 72rem; }
footer { padding: 1rem 2rem; border-top: 1px solid var(--line); color: var(--muted); font-size: .9rem; }
section { margin: 1.25rem 0 1.75rem; }
section.part { border-top: 3px solid var(--line); padding-top: .5rem; }
h2 { font-size: 1.35rem; margin: 1.5rem 0 .5rem; }
h3 { font-size: 1.15rem; margin: 1.25rem 0 .4rem; }
h4 { font-size: 1.02rem; margin: 1rem 0 .35rem; }
h5, h6 { font-size: .95rem; margin: .8rem 0 .3rem; }
p { margin: .35rem 0 .6rem; }
.muted { color: var(--muted); }
.lede { font-size: 1.05rem; }
dl.facts { display: flex; flex-wrap: wrap; gap: .4rem 1.5rem; margin: .5rem 0 .75rem; }
dl.facts div { min-width: 8rem; }
dl.facts dt { font-size: .8rem; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
dl.facts dd { margin: 0; font-weight: 600; }
.table-wrap { overflow-x: auto; margin: .5rem 0 1rem; }
table { border-collapse: collapse; min-width: 50%; font-size: .92rem; }
caption { text-align: left; font-weight: 600; padding: .25rem 0 .4rem; }
th, td { border: 1px solid var(--line); padding: .3rem .55rem; text-align: left; vertical-align: top; }
thead th { background: var(--soft); }
tbody th { font-weight: 600; }
tr.highlight > * { background: #fff7d6; }
tr.vetoed > * { background: #fde8e8; }
.badge { display: inline-block; padding: .05rem .5rem; border-radius: .75rem; font-weight: 600; font-size: .88rem; border: 1px solid; white-space: nowrap; }
.badge-ok { color: #14532d; background: #dcfce7; border-color: #15803d; }
.badge-bad { color: #7f1d1d; background: #fee2e2; border-color: #b91c1c; }
.badge-warn { color: #713f12; background: #fef9c3; border-color: #a16207; }
.badge-info { color: #1e3a8a; background: #dbeafe; border-color: #1d4ed8; }
.veto-mark { text-transform: uppercase; letter-spacing: .04em; }
.callout { border-left: 5px solid var(--accent); background: var(--soft); padding: .6rem .9rem; margin: .75rem 0; }
.callout.bad { border-left-color: #b91c1c; }
.callout.warn { border-left-color: #a16207; }
.callout.ok { border-left-color: #15803d; }
.callout h3, .callout h4, .callout h5 { margin-top: .2rem; }
pre { background: #f6f6f6; border: 1px solid var(--line); padding: .5rem .7rem; overflow-x: auto; font: .85rem/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-word; max-height: 24rem; }
code { font: .88em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.members { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(26rem, 100%), 1fr)); gap: .5rem 2rem; }
article.member { border-top: 1px solid var(--line); }
article.member figure { margin: .25rem 0 .25rem; }
figure { margin: .5rem 0 1rem; }
figcaption { font-size: .9rem; color: var(--muted); max-width: 40rem; }
figure.output { margin: .4rem 0 .8rem; }
figure.output figcaption { margin-bottom: .2rem; }
svg.chart { max-width: 100%; height: auto; font-family: inherit; }
svg .svg-label, svg .svg-value, svg .svg-group { font-size: 12px; fill: #1a1a1a; }
svg .svg-group { font-weight: 700; }
svg .svg-small { font-size: 10px; fill: #4a4a4a; }
svg .axis { stroke: #4a4a4a; }
svg .grid { stroke: #d4d4d4; stroke-dasharray: 2 3; }
svg .band { fill: #f4f5f7; }
svg .marker line { stroke: #4a4a4a; stroke-dasharray: 4 3; }
svg .bar-ok { fill: #15803d; }
svg .bar-bad { fill: #b91c1c; }
svg .bar-warn { fill: #a16207; }
svg .bar-info { fill: #1d4ed8; }
nav.toc { background: var(--soft); border: 1px solid var(--line); padding: .5rem 1rem; margin: 1rem 0; max-width: 40rem; }
nav.toc h2 { margin-top: .3rem; font-size: 1.1rem; }
ul.plan, ul.plan ul { list-style: none; padding-left: 1.2rem; }
ul.plan { padding-left: 0; }
ul.plan li { margin: .35rem 0; }
details { margin: .4rem 0 .8rem; }
summary { cursor: pointer; font-weight: 600; }
.statement { margin: .2rem 0 .6rem; white-space: pre-wrap; }
.outcome h2 { margin-top: .6rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(19rem, 100%), 1fr)); gap: .6rem; }
article.card { border: 1px solid var(--line); border-left: 6px solid var(--accent); border-radius: 4px; padding: .35rem .75rem .45rem; min-width: 0; overflow-wrap: anywhere; }
article.card.ok { border-left-color: #15803d; }
article.card.bad { border-left-color: #b91c1c; }
article.card.warn { border-left-color: #a16207; }
article.card h3 { margin: .15rem 0 .3rem; font-size: 1.05rem; }
article.card dl { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: .25rem .6rem; margin: 0; }
article.card dt { color: var(--muted); font-size: .85rem; padding-top: .1rem; }
article.card dd { margin: 0; }
article.card .about { color: var(--muted); font-size: .9rem; margin: .3rem 0 0; }
article.card .badge, p.emission .badge { white-space: normal; }
article.card .act .badge { border-radius: 4px; }
@media (min-width: 48rem) { svg.timeline { width: 30rem; } }
@media (max-width: 40rem) {
  header.report-head { padding: .75rem 1rem .6rem; }
  header.report-head h1 { font-size: 1.3rem; }
  main { padding: .25rem 1rem 1.5rem; }
  header.report-head p { font-size: .93rem; margin: .2rem 0; }
  section.outcome { margin-top: .5rem; }
  .outcome h2 { margin: .5rem 0 .4rem; }
  article.card .about { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  footer { padding: 1rem; }
}
@media print { .skip { display: none; } pre { max-height: none; } }
`;
