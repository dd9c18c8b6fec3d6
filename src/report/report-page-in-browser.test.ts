import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReportDemo } from '../../test/scenarios/report/run-report-demo.js';
import {
  CHART_NAMES,
  type ExpectedMark,
  expectedMarkers,
  expectedMarks,
} from './__fixtures__/expected-chart-marks.js';
import { HOSTILE_TOOL, LONG_TOOL, sampleReport } from './__fixtures__/sample-report.js';
import type { AuditReport } from './audit-report.js';
import { renderReportHtml } from './render-report-html.js';
import { reportAuditLog } from './report-audit-log.js';
import type { ChartName } from './report-charts.js';

/** Debian's Chromium, never a downloaded one; `TOOLWARDEN_CHROMIUM` points elsewhere. */
const CHROMIUM = process.env.TOOLWARDEN_CHROMIUM ?? '/usr/bin/chromium';
/** Where the page and its screenshot go: a fresh temp folder (removed after), or this folder (kept). */
const KEEP_IN = process.env.TOOLWARDEN_REPORT_ARTIFACTS;
const TIMEOUT_MS = 60_000;
/** Charts whose bars grow upwards (height); the others grow rightwards (width), points move up (y). */
const COLUMNS: ReadonlySet<ChartName> = new Set(['rounds']);

interface DrawnMark extends ExpectedMark {
  readonly box: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
}

describe('the report page in a real browser', () => {
  let browser: Browser;
  /** Set by `open`; the tests take it from `opened()`, which fails when the browser could not start. */
  let page: Page;
  let folder: string;
  const dialogs: string[] = [];
  const requests: string[] = [];
  const problems: string[] = [];
  let pageUrl: string;
  let setup: Promise<void>;

  /** Opens the page; a missing browser fails every test with how to install it (never a skip). */
  async function open(): Promise<void> {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is not at ${CHROMIUM}: install Debian's chromium (apt-get install chromium), or set TOOLWARDEN_CHROMIUM to a Chromium binary`,
      );
    }
    folder = KEEP_IN ?? (await mkdtemp(join(tmpdir(), 'toolwarden-report-')));
    await mkdir(folder, { recursive: true });
    const file = join(folder, 'report.html');
    await writeFile(file, renderReportHtml(sampleReport));
    pageUrl = pathToFileURL(file).href;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    await page.goto(pageUrl, { waitUntil: 'load' });
  }

  beforeAll(async () => {
    setup = open();
    await setup.catch(() => undefined);
  }, TIMEOUT_MS);

  /** The open page, or the reason it could not be opened. */
  async function opened(): Promise<Page> {
    await setup;
    return page;
  }

  afterAll(async () => {
    await browser?.close();
    if (KEEP_IN === undefined && folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  async function drawnMarks(chart: ChartName, selector: string): Promise<DrawnMark[]> {
    return (await opened()).$$eval(`figure[data-chart="${chart}"] ${selector}`, (elements) =>
      elements.map((element) => {
        const rect = element.getBoundingClientRect();
        const series = element.getAttribute('data-series');
        return {
          label: element.getAttribute('data-label') ?? '',
          ...(series === null ? {} : { series }),
          value: Number(element.getAttribute('data-value')),
          box: { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
        };
      }),
    );
  }

  const figures = ({ box: _, ...mark }: DrawnMark): ExpectedMark => mark;

  it(
    'embeds the report it was rendered from',
    async () => {
      const page = await opened();
      const json = await page.textContent('#toolwarden-report');
      expect(JSON.parse(json ?? '')).toEqual(sampleReport);
    },
    TIMEOUT_MS,
  );

  it(
    'draws every chart with the figures of the embedded JSON and of the report, bars sized in order',
    async () => {
      const page = await opened();
      const embedded = JSON.parse((await page.textContent('#toolwarden-report')) ?? '') as AuditReport;
      const fromPage = expectedMarks(embedded);
      const fromReport = expectedMarks(sampleReport);
      for (const chart of CHART_NAMES) {
        const marks = await drawnMarks(chart, '.mark');
        expect(marks.length, chart).toBeGreaterThan(0);
        expect(marks.map(figures), chart).toEqual(fromPage[chart]);
        expect(marks.map(figures), chart).toEqual(fromReport[chart]);
        for (const mark of marks) {
          if (mark.value > 0) {
            expect(mark.box.width, `${chart} ${mark.label}`).toBeGreaterThan(0);
            expect(mark.box.height, `${chart} ${mark.label}`).toBeGreaterThan(0);
          }
        }
        const size = (mark: DrawnMark): number =>
          chart === 'repeat-rate' ? -mark.box.y : COLUMNS.has(chart) ? mark.box.height : mark.box.width;
        const byValue = [...marks].sort((a, b) => a.value - b.value);
        for (let i = 1; i < byValue.length; i++) {
          const [smaller, larger] = [byValue[i - 1], byValue[i]] as [DrawnMark, DrawnMark];
          // A larger figure is never drawn smaller (0.5 px for the coordinates' rounding).
          expect(size(larger) + 0.5, `${chart}: ${larger.label} ≥ ${smaller.label}`).toBeGreaterThanOrEqual(
            size(smaller),
          );
        }
      }
      const markers = expectedMarkers(sampleReport);
      for (const chart of ['rounds', 'repeat-rate'] as const) {
        const drawn = await drawnMarks(chart, '.marker');
        expect(drawn.map(figures), chart).toEqual(markers[chart]);
        for (const marker of drawn) expect(marker.box.height, `${chart} ${marker.label}`).toBeGreaterThan(0);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'places the rounds markers on the x axis in the order of their values (P95 < recommended < configured)',
    async () => {
      const page = await opened();
      const bars = await drawnMarks('rounds', '.mark');
      const barAt = (rounds: number): number => {
        const bar = bars.find((mark) => mark.label === String(rounds));
        return (bar?.box.x ?? Number.NaN) + (bar?.box.width ?? 0) / 2;
      };
      const markers = await page.$$eval('figure[data-chart="rounds"] .marker', (elements) =>
        elements.map((element) => {
          const rect = element.querySelector('line')?.getBoundingClientRect();
          return {
            value: Number(element.getAttribute('data-value')),
            x: (rect?.x ?? 0) + (rect?.width ?? 0) / 2,
          };
        }),
      );
      expect(markers).toHaveLength(expectedMarkers(sampleReport).rounds.length);
      const p95 = markers.find((marker) => marker.value === sampleReport.rounds.p95);
      // P95 is 8 and a bar stands at 8 rounds: the marker is drawn through its middle.
      expect(Math.abs((p95?.x ?? 0) - barAt(8))).toBeLessThan(1);
      const sorted = [...markers].sort((a, b) => a.value - b.value);
      for (let i = 1; i < sorted.length; i++) {
        expect((sorted[i]?.x ?? 0) > (sorted[i - 1]?.x ?? 0)).toBe(true);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'shows hostile and long tool names as text, runs no script and fits the window',
    async () => {
      const page = await opened();
      const text = (await page.textContent('main')) ?? '';
      expect(text).toContain(HOSTILE_TOOL);
      expect(await page.$$('main img, main script, main iframe, main object')).toHaveLength(0);
      expect(await page.locator(`span.tool[title="${LONG_TOOL}"]`).count()).toBeGreaterThanOrEqual(2);
      const overflow = await page.$eval('html', (root) => root.scrollWidth - root.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // Every text of a chart (tool names, ticks, marker labels) is drawn inside its chart, none cut off.
      const outside = await page.$$eval('figure svg text', (texts) =>
        texts.flatMap((text) => {
          const inner = text.getBoundingClientRect();
          const outer = text.ownerSVGElement?.getBoundingClientRect();
          const inside =
            outer !== undefined &&
            inner.left >= outer.left - 0.5 &&
            inner.right <= outer.right + 0.5 &&
            inner.top >= outer.top - 0.5 &&
            inner.bottom <= outer.bottom + 0.5;
          return inside ? [] : [text.textContent ?? ''];
        }),
      );
      expect(outside).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(problems).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    'sends no request but for the page itself',
    async () => {
      await opened();
      expect(requests).toEqual([pageUrl]);
    },
    TIMEOUT_MS,
  );

  it(
    'draws the page of a real audit log (demo report) with the figures of its JSON report',
    async () => {
      await opened();
      const demo = await runReportDemo(join(folder, 'demo'));
      const real = JSON.parse(await readFile(demo.json, 'utf8')) as AuditReport;
      const demoPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      try {
        await demoPage.goto(pathToFileURL(demo.html).href, { waitUntil: 'load' });
        const expected = expectedMarks(real);
        for (const chart of CHART_NAMES) {
          const marks = await demoPage.$$eval(`figure[data-chart="${chart}"] .mark`, (elements) =>
            elements.map((element) => {
              const series = element.getAttribute('data-series');
              const rect = element.getBoundingClientRect();
              return {
                label: element.getAttribute('data-label') ?? '',
                ...(series === null ? {} : { series }),
                value: Number(element.getAttribute('data-value')),
                drawn: rect.width > 0 && rect.height > 0,
              };
            }),
          );
          expect(
            marks.map(({ drawn: _, ...mark }) => mark),
            chart,
          ).toEqual(expected[chart]);
          expect(
            marks.filter((mark) => mark.value > 0 && !mark.drawn),
            chart,
          ).toEqual([]);
        }
        await demoPage.screenshot({ path: join(folder, 'demo-report.png'), fullPage: true });
      } finally {
        await demoPage.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'draws the page of a real MCP proxy log: the reason there are no run figures, and no empty box',
    async () => {
      await opened();
      const report = await reportAuditLog(
        fileURLToPath(new URL('./__fixtures__/proxy-audit.jsonl', import.meta.url)),
      );
      const file = join(folder, 'proxy-report.html');
      await writeFile(file, renderReportHtml(report));
      const proxyPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      try {
        await proxyPage.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        expect(await proxyPage.locator('[data-no-runs]').isVisible()).toBe(true);
        expect(await proxyPage.locator('[data-no-runs]').textContent()).toMatch(/^No run records: /);
        // Every figure drawn holds a chart with visible marks or a sentence: none is an empty frame.
        const figures = await proxyPage.$$eval('figure[data-chart]', (elements) =>
          elements.map((element) => ({
            chart: element.getAttribute('data-chart'),
            marks: [...element.querySelectorAll('.mark')].filter((mark) => {
              const box = mark.getBoundingClientRect();
              return box.width > 0 && box.height > 0;
            }).length,
            sentence: element.querySelector('p.empty')?.textContent ?? '',
          })),
        );
        expect(figures.map((entry) => entry.chart)).toEqual(['repeat-rate', 'latency', 'errors']);
        for (const entry of figures) expect(entry.marks, entry.chart ?? '').toBeGreaterThan(0);
        const overflow = await proxyPage.$eval('html', (root) => root.scrollWidth - root.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await proxyPage.screenshot({ path: join(folder, 'proxy-report.png'), fullPage: true });
      } finally {
        await proxyPage.close();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'saves a full-page screenshot',
    async () => {
      const page = await opened();
      const path = join(folder, 'report.png');
      await page.screenshot({ path, fullPage: true });
      const { size } = await stat(path);
      expect(size).toBeGreaterThan(50_000);
      const height = await page.$eval('html', (root) => root.scrollHeight);
      expect(height).toBeGreaterThan(1500);
    },
    TIMEOUT_MS,
  );
});
