import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHART_NAMES, expectedMarkers, expectedMarks } from './__fixtures__/expected-chart-marks.js';
import { emptyReport, HOSTILE_TOOL, LONG_TOOL, sampleReport } from './__fixtures__/sample-report.js';
import type { AuditReport } from './audit-report.js';
import { renderReportHtml } from './render-report-html.js';
import { reportAuditLog } from './report-audit-log.js';

const SVG_NAMESPACE = 'xmlns="http://www.w3.org/2000/svg"';

/** Entities back to text, as a browser reads an attribute. */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#47);/g, (_, name: string) => ENTITIES[name] ?? '');
}
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#47': '/' };

function attributes(tag: string): Record<string, string> {
  return Object.fromEntries(
    [...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name = '', value = '']) => [name, decode(value)]),
  );
}

/** Each chart's marks (class="mark") and markers (class="marker"), read from the page's text. */
function chartsOf(
  html: string,
): Map<string, { marks: Record<string, string>[]; markers: Record<string, string>[] }> {
  const charts = new Map<string, { marks: Record<string, string>[]; markers: Record<string, string>[] }>();
  for (const [, name = '', body = ''] of html.matchAll(
    /<figure data-chart="([^"]+)">([\s\S]*?)<\/figure>/g,
  )) {
    charts.set(name, {
      marks: [...body.matchAll(/<(?:rect|circle) class="mark"[^>]*>/g)].map(([tag]) => attributes(tag)),
      markers: [...body.matchAll(/<g class="marker"[^>]*>/g)].map(([tag]) => attributes(tag)),
    });
  }
  return charts;
}

/** The hostile name as the page writes it: escaped in the HTML, `\u003c` in the embedded JSON. */
const ESCAPED_HOSTILE = '&lt;img src=x onerror=alert(1)&gt;';
const JSON_HOSTILE = '\\u003cimg src=x onerror=alert(1)\\u003e';

/** Every tag of the page, its quoted attribute values left out: what the browser reads as markup. */
function markupOf(html: string): string[] {
  return (html.match(/<[^>]*>/g) ?? []).map((tag) => tag.replace(/"[^"]*"/g, '""'));
}

const asExpected = (found: Record<string, string>) => ({
  label: found['data-label'],
  ...(found['data-series'] === undefined ? {} : { series: found['data-series'] }),
  value: Number(found['data-value']),
});

describe('renderReportHtml', () => {
  const html = renderReportHtml(sampleReport);

  it('draws every figure of the report on its chart, exactly, in order', () => {
    const charts = chartsOf(html);
    expect([...charts.keys()]).toEqual(CHART_NAMES);
    const marks = expectedMarks(sampleReport);
    for (const name of CHART_NAMES) {
      expect(charts.get(name)?.marks.map(asExpected), name).toEqual(marks[name]);
      expect(marks[name].length, name).toBeGreaterThan(0);
    }
    const markers = expectedMarkers(sampleReport);
    expect(charts.get('rounds')?.markers.map(asExpected)).toEqual(markers.rounds);
    expect(markers.rounds.map((marker) => marker.value)).toEqual([8, 10, 50, 20]);
    expect(charts.get('repeat-rate')?.markers.map(asExpected)).toEqual(markers['repeat-rate']);
  });

  it('shows a hostile tool name as text: no element, no attribute it can break out of', () => {
    expect(sampleReport.tools.map((tool) => tool.tool)).toContain(HOSTILE_TOOL);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain(ESCAPED_HOSTILE);
    expect(html).toContain(JSON_HOSTILE);
    const markup = markupOf(html);
    expect(markup.filter((tag) => /onerror|\ssrc|^<\/?(?:img|iframe|object|embed)/i.test(tag))).toEqual([]);
    expect(markup.filter((tag) => tag.startsWith('<script'))).toEqual(['<script type="" id="">']);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('<script type="application/json" id="toolwarden-report">');
  });

  it('embeds the report as JSON that cannot close its tag and reads back as the same value', () => {
    const [, json = ''] =
      html.match(/<script type="application\/json" id="toolwarden-report">([\s\S]*?)<\/script>/) ?? [];
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual(sampleReport);
  });

  it('names no URL but the SVG namespace, and asks for nothing (no src, href, url() or @import)', () => {
    const svgs = html.match(/<svg /g)?.length ?? 0;
    expect(svgs).toBe(CHART_NAMES.length);
    expect(html.split(SVG_NAMESPACE).length - 1).toBe(svgs);
    const rest = html.replaceAll(SVG_NAMESPACE, '');
    expect(rest).not.toMatch(/https?:|\/\//i);
    expect(markupOf(html).filter((tag) => /\s(?:src|href|srcset|action|poster|data)=/i.test(tag))).toEqual(
      [],
    );
    const [, style = ''] = html.match(/<style>([\s\S]*?)<\/style>/) ?? [];
    expect(style.length).toBeGreaterThan(0);
    expect(style).not.toMatch(/url\(|@import|@font-face/i);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    );
  });

  it('keeps a URL in a tool name from spelling one in the page', () => {
    const report: AuditReport = {
      ...sampleReport,
      tools: [{ ...sampleReport.tools[0], tool: 'https://evil.example/x' } as AuditReport['tools'][number]],
    };
    expect(renderReportHtml(report).replaceAll(SVG_NAMESPACE, '')).not.toMatch(/https?:\/\/|\/\//);
  });

  it('cuts a 300-character tool name in tables and charts, keeping the full name as its tooltip', () => {
    expect(LONG_TOOL).toHaveLength(300);
    const cells = [...html.matchAll(/<span class="tool" title="([^"]*)">([^<]*)<\/span>/g)];
    const long = cells.filter(([, title]) => decode(title ?? '') === LONG_TOOL);
    expect(long.length).toBeGreaterThanOrEqual(2);
    for (const [, , shown = ''] of long) expect(Array.from(decode(shown)).length).toBeLessThanOrEqual(60);
    const labels = [...html.matchAll(/<text class="row-label"[^>]*><title>([^<]*)<\/title>([^<]*)<\/text>/g)];
    const chartLabel = labels.find(([, title]) => decode(title ?? '') === LONG_TOOL);
    expect(Array.from(decode(chartLabel?.[2] ?? LONG_TOOL)).length).toBeLessThanOrEqual(24);
  });

  it('renders an empty report as a page that says so, with no chart and no NaN', () => {
    const page = renderReportHtml(emptyReport);
    expect(page).toContain('data-empty-report');
    expect(page).toContain('no runs and no calls');
    expect(page).not.toMatch(/NaN|undefined|Infinity|<svg/);
    expect(JSON.parse(page.match(/id="toolwarden-report">([^<]*)</)?.[1] ?? '')).toEqual(emptyReport);
  });

  it('says so for a chart with nothing to draw, and never writes NaN in one that has', () => {
    const report: AuditReport = {
      ...sampleReport,
      stops: { rate: 0, byReason: [] },
      errors: { rate: 0, byClass: [], byCode: [] },
      repeats: {
        ...sampleReport.repeats,
        overTime: [sampleReport.repeats.overTime[0] ?? { period: 'x', calls: 0, repeated: 0, rate: 0 }],
      },
      rounds: { ...sampleReport.rounds, histogram: [{ rounds: 1, runs: 0 }], configuredCeilings: [] },
    };
    const page = renderReportHtml(report);
    expect(page).toContain('No run stopped: all 462 finished runs completed.');
    expect(page).toContain('No failed calls.');
    expect(page).not.toMatch(/NaN|undefined|Infinity/);
    expect(chartsOf(page).get('repeat-rate')?.marks).toHaveLength(1);
  });
});

/** The rows of a table of the page (`data-table`), each cell's text. */
function rowsOf(html: string, id: string): string[][] {
  const [, body = ''] =
    html.match(new RegExp(`<table data-table="${id}">[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`)) ?? [];
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row = '']) =>
    [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map(([, cell = '']) =>
      decode(cell.replace(/<[^>]*>/g, '')),
    ),
  );
}

describe('renderReportHtml of a real MCP proxy log (calls only, no run records)', () => {
  let report: AuditReport;
  let page: string;
  beforeAll(async () => {
    report = await reportAuditLog(
      fileURLToPath(new URL('./__fixtures__/proxy-audit.jsonl', import.meta.url)),
    );
    page = renderReportHtml(report);
  });

  it('says once why there are no run figures, and draws no empty rounds or stops box', () => {
    expect(report.records).toMatchObject({ calls: 14, runs: 0, skipped: 0 });
    expect(page).toContain(
      '<p class="empty" data-no-runs>No run records: this log has calls only (an MCP proxy log, or calls made outside a run): there are no rounds per run, no recommended ceiling, no stops and no tokens to show.</p>',
    );
    expect([...chartsOf(page).keys()]).toEqual(['repeat-rate', 'latency', 'errors']);
    expect(rowsOf(page, 'summary')).toEqual([
      ['runs', 'none: calls only'],
      ['repeated-fingerprint hit rate', '28.6%'],
      ['error rate', '35.7%'],
    ]);
  });

  it('counts each refusal by its code: a loop or limit refusal is not a denial, an unconfirmed run not an approval', () => {
    expect(rowsOf(page, 'approvals')).toEqual([
      ['approved by a person (on resume, or asked by the MCP proxy)', '1'],
      ['refused by a person', '1'],
      ['ran unconfirmed (allow-and-audit)', '1'],
      ["denied by policy (a decide hook, the proxy's deny list)", '1'],
      ['idempotent replays', '1'],
    ]);
    expect(rowsOf(page, 'loop-refusals')).toEqual([['open_nodes', '1']]);
    expect(rowsOf(page, 'limit-hits')).toEqual([['search_nodes', '1']]);
    expect(rowsOf(page, 'error-codes').map(([code]) => code)).toContain('LOOP_DETECTED');
  });

  it('draws the latency of the calls that ran only: a tool whose every call was refused has none', () => {
    const latency = chartsOf(page).get('latency')?.marks ?? [];
    const drawn = new Set(latency.map((mark) => mark['data-label']));
    expect([...drawn].sort()).toEqual(['create_entities', 'delete_entities', 'open_nodes', 'search_nodes']);
    expect(latency.every((mark) => Number(mark['data-value']) > 0)).toBe(true);
    const denied = rowsOf(page, 'tools').find(([tool]) => tool === 'delete_relations');
    expect(denied?.slice(-5)).toEqual(['0', '—', '—', '—', '—']);
  });
});
