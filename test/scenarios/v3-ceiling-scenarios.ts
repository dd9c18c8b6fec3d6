import { ToolInputError } from '../../src/core/errors/tool-input-error.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import { expectRounds } from './expect-rounds.js';
import { guardClassFamily } from './guard-class.js';
import type { V3ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

const guardClass = 'raised-ceiling';
const family = guardClassFamily(guardClass);

/** Pages of the long pagination, and the ceiling the task raises for it (61 rounds). */
export const SHIPMENT_PAGES = 60;
export const SHIPMENT_MAX_ROUND_TRIPS = 70;

/** Four shipments of one page: a content-bearing result. */
function shipmentPage(page: number) {
  return Array.from({ length: 4 }, (_, i) => ({
    shipmentId: `shp-${(page - 1) * 4 + i + 1}`,
    lane: `RTM-${['DUS', 'HAM', 'LYS', 'MIL'][i]}`,
    pallets: 3 + ((page + i) % 9),
  }));
}

/** listShipments: the page a cursor names (`p<n>`, none for the first) and the cursor of the next. */
function shipmentsTool(answer: (page: number) => { page: number; next: string | null }) {
  return defineTool({
    name: 'listShipments',
    description: 'One page of this quarter’s shipments. Pass the cursor of the previous page for the next.',
    input: { type: 'object', properties: { cursor: { type: 'string' } }, additionalProperties: false },
    effect: 'read',
    execute: ({ cursor }: { cursor?: string }) => {
      const { page, next } = answer(cursor === undefined ? 1 : Number(cursor.slice(1)));
      return { shipments: shipmentPage(page), nextCursor: next };
    },
  });
}

/** Follows nextCursor until a page has none. */
function followShipments() {
  return createAgentModel({
    decide: ({ lastTool }) => {
      if (lastTool === undefined) return { calls: [{ name: 'listShipments', arguments: {} }] };
      const cursor = /"nextCursor":"([^"]+)"/.exec(lastTool.content)?.[1];
      if (cursor === undefined) return { answer: `${SHIPMENT_PAGES * 4} shipments this quarter.` };
      return { calls: [{ name: 'listShipments', arguments: { cursor } }] };
    },
    lastWords: 'I listed part of the shipments.',
  });
}

const listRequest = [{ role: 'user', content: 'List every shipment of this quarter.' }] as const;

/** The price list of the update batch: one SKU per round. */
const SKUS = Array.from({ length: 50 }, (_, i) => `SKU-${4100 + i}`);

/** The records the CRM sync upserts, one per round; the 43rd is refused for a missing field. */
const CRM_RECORDS = 60;
const REFUSED_RECORD = 43;

export const v3CeilingScenarios: readonly V3ScenarioSpec[] = [
  {
    family,
    guardClass,
    name: `${SHIPMENT_PAGES}-page pagination, maxRoundTrips ${SHIPMENT_MAX_ROUND_TRIPS}`,
    description: `listShipments by cursor through ${SHIPMENT_PAGES} pages of new shipments; the task raises the ceiling`,
    kind: 'legitimate',
    expected: 'completed',
    build: () => ({
      model: followShipments(),
      tools: [shipmentsTool((page) => ({ page, next: page < SHIPMENT_PAGES ? `p${page + 1}` : null }))],
      messages: listRequest,
      options: { maxRoundTrips: SHIPMENT_MAX_ROUND_TRIPS },
      check: expectRounds(SHIPMENT_PAGES + 1),
    }),
  },
  {
    family,
    guardClass,
    name: '50 price updates, maxRoundTrips 60',
    description: 'updatePrice for 50 distinct SKUs, one per round, each {"updated":true}; the ceiling raised',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const updatePrice = defineTool({
        name: 'updatePrice',
        description: "Sets a SKU's list price in EUR.",
        input: stringInput('sku', 'priceEur'),
        effect: 'write',
        execute: () => ({ updated: true }),
      });
      const model = createAgentModel({
        decide: ({ toolMessages }) => {
          const sku = SKUS[toolMessages.length];
          if (sku === undefined) return { answer: 'The 50 spring prices are set.' };
          const priceEur = (19 + (toolMessages.length % 7) * 2).toFixed(2);
          return { calls: [{ name: 'updatePrice', arguments: { sku, priceEur } }] };
        },
        lastWords: 'I set part of the spring prices.',
      });
      return {
        model,
        tools: [updatePrice],
        messages: [{ role: 'user', content: 'Apply the 50 spring prices of the attached list.' }],
        options: { maxRoundTrips: 60 },
        check: expectRounds(51),
      };
    },
  },
  {
    family,
    guardClass,
    name: '35 meters read and saved, maxRoundTrips 80',
    description:
      'readMeter then saveReading for 35 meters (71 rounds, 35 calls per tool): the ceiling raised',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const readMeter = defineTool({
        name: 'readMeter',
        description: "A water meter's current reading, by meter id.",
        input: stringInput('meterId'),
        effect: 'read',
        execute: ({ meterId }: { meterId: string }) => ({ meterId, m3: 100 + Number(meterId.slice(2)) * 7 }),
      });
      const saveReading = defineTool({
        name: 'saveReading',
        description: 'Saves a meter reading to the billing system.',
        input: { type: 'object', properties: { meterId: { type: 'string' }, m3: { type: 'number' } } },
        effect: 'write',
        execute: () => ({ saved: true }),
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool?.name === 'readMeter') {
            const reading = JSON.parse(lastTool.content) as { meterId: string; m3: number };
            return { calls: [{ name: 'saveReading', arguments: reading }] };
          }
          const next = toolMessages.length / 2 + 1;
          if (next > 35) return { answer: 'The 35 meter readings of the block are billed.' };
          return { calls: [{ name: 'readMeter', arguments: { meterId: `m-${next}` } }] };
        },
        lastWords: 'I billed part of the meter readings.',
      });
      return {
        model,
        tools: [readMeter, saveReading],
        messages: [{ role: 'user', content: 'Read and bill the 35 water meters of block C.' }],
        options: { maxRoundTrips: 80 },
        check: expectRounds(71),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'raised ceiling, a cursor stuck on page 30',
    description:
      'maxRoundTrips 70; from page 30 on the service answers page 30 with cursor p30, again and again',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 30 asks for p30 and gets page 30 naming p30; round 31 asks again: nothing new.
    evidentAt: 31,
    build: () => ({
      model: followShipments(),
      tools: [shipmentsTool((page) => ({ page, next: `p${Math.min(page + 1, 30)}` }))],
      messages: listRequest,
      options: { maxRoundTrips: SHIPMENT_MAX_ROUND_TRIPS },
    }),
  },
  {
    family,
    guardClass,
    name: 'raised ceiling, page 35 served again',
    description: 'maxRoundTrips 70; after page 35 each new cursor brings page 35 again (new nextCursor only)',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 36 follows a new cursor and gets the shipments of round 35 again.
    evidentAt: 36,
    build: () => ({
      model: followShipments(),
      tools: [shipmentsTool((page) => ({ page: Math.min(page, 35), next: `p${page + 1}` }))],
      messages: listRequest,
      options: { maxRoundTrips: SHIPMENT_MAX_ROUND_TRIPS },
    }),
  },
  {
    family,
    guardClass,
    name: 'raised ceiling, record 43 refused again',
    description: `maxRoundTrips 70; upsertContact for ${CRM_RECORDS} records; the 43rd is refused and resent as it was`,
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 43 is refused; round 44 resends it unchanged and is refused alike.
    evidentAt: REFUSED_RECORD + 1,
    build() {
      const upsertContact = defineTool({
        name: 'upsertContact',
        description: 'Creates or updates a contact of the CRM.',
        input: stringInput('contactId', 'email'),
        effect: 'write',
        execute: ({ contactId }: { contactId: string }) => {
          if (contactId === `c-${REFUSED_RECORD}`)
            throw new ToolInputError({
              message: 'contact c-43 needs a country (field "country" is missing)',
            });
          return { upserted: true };
        },
      });
      const model = createAgentModel({
        decide: ({ toolMessages }) => {
          const n = Math.min(toolMessages.length + 1, REFUSED_RECORD);
          return {
            calls: [
              { name: 'upsertContact', arguments: { contactId: `c-${n}`, email: `c${n}@example.net` } },
            ],
          };
        },
        lastWords: 'I synced part of the contacts.',
      });
      return {
        model,
        tools: [upsertContact],
        messages: [{ role: 'user', content: `Sync the ${CRM_RECORDS} contacts of the export into the CRM.` }],
        options: { maxRoundTrips: SHIPMENT_MAX_ROUND_TRIPS },
      };
    },
  },
];
