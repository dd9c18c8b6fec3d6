import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import { expectRounds } from './expect-rounds.js';
import { guardClassFamily } from './guard-class.js';
import type { V3ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

const guardClass = 'distinct-entities';
const family = guardClassFamily(guardClass);

const MANAGERS = ['m-17', 'm-23', 'm-42'];

/** The one policy of the finance department: every manager's approval policy is this text. */
const APPROVAL_POLICY = {
  limitEur: 5000,
  text: 'Expenses up to 5,000 EUR need the approval of the line manager; above it, of the finance director too.',
  appliesTo: 'finance department',
};

/** listManagers and getApprovalPolicy: three managers, one policy. */
function policyTools() {
  const listManagers = defineTool({
    name: 'listManagers',
    description: 'The managers of a department.',
    input: stringInput('department'),
    effect: 'read',
    execute: () => ({ managers: MANAGERS.map((managerId) => ({ managerId })) }),
  });
  const getApprovalPolicy = defineTool({
    name: 'getApprovalPolicy',
    description: "A manager's expense approval policy.",
    input: stringInput('managerId'),
    effect: 'read',
    execute: () => APPROVAL_POLICY,
  });
  return [listManagers, getApprovalPolicy];
}

/** Lists the managers, then asks for the policy of `order[i]` in round i + 2; answers after `calls` of them. */
function policyModel(order: readonly string[], calls: number) {
  return createAgentModel({
    decide: ({ toolMessages }) => {
      if (toolMessages.length === 0)
        return { calls: [{ name: 'listManagers', arguments: { department: 'finance' } }] };
      const asked = toolMessages.length - 1;
      if (asked >= calls) return { answer: 'All three finance managers approve expenses up to 5,000 EUR.' };
      const managerId = order[asked % order.length] as string;
      return { calls: [{ name: 'getApprovalPolicy', arguments: { managerId } }] };
    },
    lastWords: 'I compared some of the approval policies.',
  });
}

/** The site's pages: three of them are gone, and the server answers each of those with one 404 page. */
const SITE_PAGES = [
  '/pricing',
  '/old-pricing',
  '/blog',
  '/blog/2019-launch',
  '/careers',
  '/careers/intern-2020',
];
const GONE = new Set(['/old-pricing', '/blog/2019-launch', '/careers/intern-2020']);
const NOT_FOUND_PAGE = {
  status: 404,
  body: '<html><head><title>Not found</title></head><body><h1>This page does not exist</h1><a href="/">Home</a></body></html>',
};

function checkUrlTool(found: (path: string) => boolean) {
  return defineTool({
    name: 'checkUrl',
    description: 'Fetches a URL: its status and body.',
    input: stringInput('url'),
    effect: 'read',
    execute: ({ url }: { url: string }) => {
      const path = new URL(url).pathname.replace(/\/$/, '') || '/';
      return found(path) ? { status: 200, body: `<html><title>${path}</title></html>` } : NOT_FOUND_PAGE;
    },
  });
}

/** Five support tickets: one page of them. */
const TICKETS = Array.from({ length: 5 }, (_, i) => ({
  ticketId: `SUP-${310 + i}`,
  subject: `Printer on floor ${i + 2} offline`,
  status: 'open',
}));

export const v3EntityScenarios: readonly V3ScenarioSpec[] = [
  {
    family,
    guardClass,
    name: 'one policy text for three managers',
    description:
      'listManagers, then getApprovalPolicy for m-17, m-23, m-42: the same policy each time, then the answer',
    kind: 'legitimate',
    expected: 'completed',
    build: () => ({
      model: policyModel(MANAGERS, 3),
      tools: policyTools(),
      messages: [{ role: 'user', content: 'Do the finance managers have different approval limits?' }],
      check: expectRounds(5),
    }),
  },
  {
    family,
    guardClass,
    name: 'link check: one 404 page for three URLs',
    description: 'getSitemap, then checkUrl for 6 pages; three distinct dead pages answer the same 404 body',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const getSitemap = defineTool({
        name: 'getSitemap',
        description: "The site's pages, as full URLs.",
        effect: 'read',
        execute: () => ({ urls: SITE_PAGES.map((path) => `https://shop.example${path}`) }),
      });
      const model = createAgentModel({
        decide: ({ toolMessages }) => {
          if (toolMessages.length === 0) return { calls: [{ name: 'getSitemap' }] };
          const path = SITE_PAGES[toolMessages.length - 1];
          if (path === undefined) return { answer: `Dead links: ${[...GONE].join(', ')}.` };
          return { calls: [{ name: 'checkUrl', arguments: { url: `https://shop.example${path}` } }] };
        },
        lastWords: 'I checked some of the links.',
      });
      return {
        model,
        tools: [getSitemap, checkUrlTool((path) => !GONE.has(path))],
        messages: [{ role: 'user', content: 'Which pages of the sitemap are dead links?' }],
        check: expectRounds(8),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'fan-out: one SLA for three vendors',
    description: 'listVendors, then getSla for 3 vendors in one response: one standard SLA text for all',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const listVendors = defineTool({
        name: 'listVendors',
        description: 'The vendors under contract.',
        effect: 'read',
        execute: () => ({ vendors: ['v-acme', 'v-globex', 'v-initech'] }),
      });
      const getSla = defineTool({
        name: 'getSla',
        description: "A vendor's service level agreement.",
        input: stringInput('vendorId'),
        effect: 'read',
        execute: () => ({
          template: 'standard-2024',
          uptime: '99.9%',
          text: 'Response within 4 business hours for severity 1; service credits of 5% per hour beyond it.',
        }),
      });
      const model = createAgentModel({
        decide: ({ round }) => {
          if (round === 1) return { calls: [{ name: 'listVendors' }] };
          if (round === 2)
            return {
              calls: ['v-acme', 'v-globex', 'v-initech'].map((vendorId) => ({
                name: 'getSla',
                arguments: { vendorId },
              })),
            };
          return { answer: 'All three vendors are on the standard 2024 SLA (99.9% uptime).' };
        },
        lastWords: 'I read some of the SLAs.',
      });
      return {
        model,
        tools: [listVendors, getSla],
        messages: [{ role: 'user', content: 'Which SLA does each of our vendors have?' }],
        check: expectRounds(3),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'one checklist per hire, assigned in between',
    description:
      'getChecklist then assignChecklist for 3 new hires: the same checklist each time, a write between',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const hires = ['h-501', 'h-502', 'h-503'];
      const getChecklist = defineTool({
        name: 'getChecklist',
        description: "A new hire's onboarding checklist.",
        input: stringInput('hireId'),
        effect: 'read',
        execute: () => ({
          checklist: 'onboarding-engineering',
          items: ['laptop', 'badge', 'payroll form', 'security training', 'buddy lunch', 'repo access'],
        }),
      });
      const assignChecklist = defineTool({
        name: 'assignChecklist',
        description: 'Assigns a checklist to a new hire.',
        input: stringInput('hireId', 'checklist'),
        effect: 'write',
        execute: () => ({ assigned: true }),
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          const hire = hires[Math.floor(toolMessages.length / 2)];
          if (hire === undefined) return { answer: 'The three new hires have their onboarding checklist.' };
          if (lastTool?.name === 'getChecklist')
            return {
              calls: [
                { name: 'assignChecklist', arguments: { hireId: hire, checklist: 'onboarding-engineering' } },
              ],
            };
          return { calls: [{ name: 'getChecklist', arguments: { hireId: hire } }] };
        },
        lastWords: 'I assigned some of the checklists.',
      });
      return {
        model,
        tools: [getChecklist, assignChecklist],
        messages: [{ role: 'user', content: 'Give each new hire of this week their onboarding checklist.' }],
        check: expectRounds(7),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'the same three managers, round and round',
    description: 'getApprovalPolicy for m-17, m-23, m-42, then m-17 again (round 5), m-23, ...',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 5 asks for m-17's policy, which round 2 already gave.
    evidentAt: 5,
    build: () => ({
      model: policyModel(MANAGERS, Number.POSITIVE_INFINITY),
      tools: policyTools(),
      messages: [{ role: 'user', content: 'Do the finance managers have different approval limits?' }],
    }),
  },
  {
    family,
    guardClass,
    name: 'one dead page under four spellings',
    description: 'checkUrl for /pricing with and without a slash, http, www: the same 404 page, on and on',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build() {
      const spellings = [
        'https://shop.example/pricing',
        'https://shop.example/pricing/',
        'http://shop.example/pricing',
        'https://www.shop.example/pricing',
      ];
      const model = createAgentModel({
        decide: ({ toolMessages }) => ({
          calls: [
            { name: 'checkUrl', arguments: { url: spellings[toolMessages.length % spellings.length] } },
          ],
        }),
        lastWords: 'The pricing page answers 404.',
      });
      return {
        model,
        tools: [checkUrlTool(() => false)],
        messages: [{ role: 'user', content: 'Is the pricing page up?' }],
      };
    },
  },
  {
    family,
    guardClass,
    name: 'page numbers the service ignores',
    description: 'listTickets page 1, 2, 3, ...: the same five tickets on every page, no end',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build() {
      const listTickets = defineTool({
        name: 'listTickets',
        description: 'Open support tickets, five per page, by page number.',
        input: { type: 'object', properties: { page: { type: 'integer' } }, required: ['page'] },
        effect: 'read',
        execute: () => ({ tickets: TICKETS }),
      });
      const model = createAgentModel({
        decide: ({ toolMessages }) => ({
          calls: [{ name: 'listTickets', arguments: { page: toolMessages.length + 1 } }],
        }),
        lastWords: 'I listed the first open tickets.',
      });
      return {
        model,
        tools: [listTickets],
        messages: [{ role: 'user', content: 'List every open support ticket.' }],
      };
    },
  },
];
