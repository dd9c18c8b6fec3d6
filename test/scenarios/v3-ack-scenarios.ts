import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import { expectRounds } from './expect-rounds.js';
import { guardClassFamily } from './guard-class.js';
import type { V3ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

const guardClass = 'ack-new-state';
const family = guardClassFamily(guardClass);

/** The steps of the sign-up wizard, as readPage shows them; the last one has a submit button. */
const WIZARD_STEPS = ['Account', 'Profile', 'Billing address', 'Payment method', 'Review'];

/**
 * A browser: `click` (effect unknown, as a browser tool over MCP is) answers {"ok":true} whatever it did;
 * `readPage` shows where the wizard is. A Next click moves one step on, up to `stuckAt` (the step the form
 * does not leave: a required field the model never fills).
 */
function browser(stuckAt = Number.POSITIVE_INFINITY) {
  let step = 0;
  let submitted = false;
  const readPage = defineTool({
    name: 'readPage',
    description: 'The visible text and buttons of the current page.',
    effect: 'read',
    execute: () => {
      if (submitted) return { url: '/signup/done', heading: 'Thank you', text: 'Your account is ready.' };
      const title = WIZARD_STEPS[step] as string;
      return {
        url: `/signup/step-${step + 1}`,
        heading: `Step ${step + 1} of ${WIZARD_STEPS.length}: ${title}`,
        text: `Please check the ${title.toLowerCase()} details we filled in from your invitation.`,
        buttons: step === WIZARD_STEPS.length - 1 ? ['Back', 'Submit'] : ['Back', 'Next'],
      };
    },
  });
  const click = defineTool({
    name: 'click',
    description: 'Clicks the element a CSS selector names.',
    input: stringInput('selector'),
    effect: 'unknown',
    execute: ({ selector }: { selector: string }) => {
      if (selector === '#submit') submitted = true;
      else if (selector === '#next' && step < Math.min(stuckAt, WIZARD_STEPS.length - 1)) step++;
      return { ok: true };
    },
  });
  return [readPage, click];
}

/** Reads the page after every click; clicks Next (or Submit on the last step) after every read. */
function wizardModel(lastWords: string) {
  return createAgentModel({
    decide: ({ lastTool }) => {
      if (lastTool === undefined || lastTool.name === 'click') return { calls: [{ name: 'readPage' }] };
      if (lastTool.content.includes('Thank you'))
        return { answer: 'You are signed up; the account is ready.' };
      const selector = lastTool.content.includes('"Submit"') ? '#submit' : '#next';
      return { calls: [{ name: 'click', arguments: { selector } }] };
    },
    lastWords,
  });
}

/** The pages of the supplier contract, as the viewer shows them one screen at a time. */
const CONTRACT_SCREENS = [
  '1. Parties. This agreement is made between Northwind Traders and Contoso Freight, hereafter the Carrier.',
  '2. Services. The Carrier moves pallets between the Rotterdam and Duisburg depots on business days.',
  '3. Rates. Each pallet is billed at 38 EUR; a surcharge applies to loads collected after 18:00.',
  '4. Liability. The Carrier is liable for damage in transit up to 8.33 SDR per kilogram of gross weight.',
  '5. Term. The agreement runs for two years and renews for one year unless cancelled three months ahead.',
];

/**
 * A document viewer: `pressKey` (a write whose every press counts: `idempotency: false`) answers
 * {"ok":true}; `readScreen` shows the screen, as text. PageDown moves one screen on, up to the last.
 */
function viewer(screens: readonly string[]) {
  let at = 0;
  const readScreen = defineTool({
    name: 'readScreen',
    description: 'The text on the screen of the document viewer.',
    effect: 'read',
    execute: () => `Supplier contract, screen ${at + 1}\n\n${screens[at] as string}`,
    formatResult: (text: string) => text,
  });
  const pressKey = defineTool({
    name: 'pressKey',
    description: 'Presses a key in the document viewer.',
    input: stringInput('key'),
    effect: 'write',
    idempotency: false,
    execute: ({ key }: { key: string }) => {
      if (key === 'PageDown' && at < screens.length - 1) at++;
      return { ok: true };
    },
  });
  return [readScreen, pressKey];
}

/** Reads a screen, presses PageDown, reads the next, until it has read `screens` distinct ones (never, when 0). */
function readerModel(screens: number) {
  return createAgentModel({
    decide: ({ lastTool, toolMessages }) => {
      const seen = new Set(toolMessages.filter((m) => m.name === 'readScreen').map((m) => m.content));
      if (screens > 0 && seen.size === screens && lastTool?.name === 'readScreen')
        return {
          answer: 'The contract runs two years at 38 EUR a pallet; liability is capped per kilogram.',
        };
      if (lastTool === undefined || lastTool.name === 'pressKey') return { calls: [{ name: 'readScreen' }] };
      return { calls: [{ name: 'pressKey', arguments: { key: 'PageDown' } }] };
    },
    lastWords: 'I read part of the supplier contract.',
  });
}

/** The stages of a ticket on the board, in order. */
const STAGES = ['todo', 'in progress', 'in review', 'done'];

/**
 * A board: `advanceTicket` (a write that runs each time: `idempotency: false`) moves a ticket one stage on
 * and answers {"ok":true}, also when it is already at the last stage; `getTicket` shows the stage.
 */
function board() {
  const last = STAGES.length - 1;
  let stage = 0;
  const getTicket = defineTool({
    name: 'getTicket',
    description: 'A ticket of the sprint board: title, stage, assignee.',
    input: stringInput('ticketId'),
    effect: 'read',
    execute: ({ ticketId }: { ticketId: string }) => ({
      ticketId,
      title: 'Export invoices as CSV',
      stage: STAGES[stage],
      assignee: 'dana',
    }),
  });
  const advanceTicket = defineTool({
    name: 'advanceTicket',
    description: 'Moves a ticket to the next stage of the board.',
    input: stringInput('ticketId'),
    effect: 'write',
    idempotency: false,
    execute: () => {
      if (stage < last) stage++;
      return { ok: true };
    },
  });
  return [getTicket, advanceTicket];
}

/** Reads the ticket, advances it, reads it again, until its stage is `target`. */
function boardModel(target: string) {
  return createAgentModel({
    decide: ({ lastTool }) => {
      if (lastTool === undefined || lastTool.name === 'advanceTicket')
        return { calls: [{ name: 'getTicket', arguments: { ticketId: 'T-7' } }] };
      if (lastTool.content.includes(`"stage":"${target}"`)) return { answer: `T-7 is ${target}.` };
      return { calls: [{ name: 'advanceTicket', arguments: { ticketId: 'T-7' } }] };
    },
    lastWords: 'I could not move T-7 where it should be.',
  });
}

export const v3AckScenarios: readonly V3ScenarioSpec[] = [
  {
    family,
    guardClass,
    name: 'wizard: Next acks {"ok":true}, new step',
    description:
      'click #next (effect unknown) answers {"ok":true} 4 times; readPage after each shows the next step',
    kind: 'legitimate',
    expected: 'completed',
    build: () => ({
      model: wizardModel('I went part of the way through the sign-up.'),
      tools: browser(),
      messages: [{ role: 'user', content: 'Finish the sign-up wizard with the details it already has.' }],
      check: expectRounds(12),
    }),
  },
  {
    family,
    guardClass,
    name: 'viewer: PageDown through a contract',
    description: 'pressKey PageDown (a write) answers {"ok":true} 4 times; each screen read after is new',
    kind: 'legitimate',
    expected: 'completed',
    build: () => ({
      model: readerModel(CONTRACT_SCREENS.length),
      tools: viewer(CONTRACT_SCREENS),
      messages: [{ role: 'user', content: 'Read the supplier contract in the viewer and sum it up.' }],
      check: expectRounds(10),
    }),
  },
  {
    family,
    guardClass,
    name: 'board: advance T-7 three stages',
    description: 'advanceTicket(T-7) answers {"ok":true} 3 times; getTicket after each shows a new stage',
    kind: 'legitimate',
    expected: 'completed',
    build: () => ({
      model: boardModel('done'),
      tools: board(),
      messages: [{ role: 'user', content: 'Move T-7 across the board to done.' }],
      check: expectRounds(8),
    }),
  },
  {
    family,
    guardClass,
    name: 'wizard: Next on a step that will not leave',
    description: 'from step 2 on, Next does nothing: readPage shows step 2 again (round 5) and again',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 4 clicks Next on step 2, as round 2 did on step 1; round 5 reads step 2 again: nothing new.
    evidentAt: 5,
    build: () => ({
      model: wizardModel('The wizard does not leave step 2.'),
      tools: browser(1),
      messages: [{ role: 'user', content: 'Finish the sign-up wizard with the details it already has.' }],
    }),
  },
  {
    family,
    guardClass,
    name: 'viewer: PageDown past the last screen',
    description: 'a 3-screen contract: after screen 3, PageDown does nothing; the screen read at 7 repeats',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // The press of round 6 looks like every press before it; the screen of round 7 repeats round 5's.
    evidentAt: 7,
    build: () => ({
      model: readerModel(0),
      tools: viewer(CONTRACT_SCREENS.slice(0, 3)),
      messages: [{ role: 'user', content: 'Read the supplier contract to its signatures.' }],
    }),
  },
  {
    family,
    guardClass,
    name: 'board: advance T-7 past done',
    description: 'the model waits for a "released" stage the board lacks: done (round 7), done again (9)',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // The advance of round 8 acks as every advance did; getTicket at round 9 repeats round 7.
    evidentAt: 9,
    build: () => ({
      model: boardModel('released'),
      tools: board(),
      messages: [{ role: 'user', content: 'Move T-7 across the board until it is released.' }],
    }),
  },
];
