import { DEFAULT_MAX_CALLS_PER_TOOL, DEFAULT_MAX_ROUND_TRIPS } from '../../src/core/defaults.js';
import { explainStop } from '../../src/run/explain-stop.js';
import { type AnyTool, defineTool } from '../../src/tools/define-tool.js';
import { emailOf, sendInviteTool, stopTextProblems } from './batch-write-scenarios.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

const SOURCES = ['searchWiki', 'searchNews', 'searchForums', 'searchDocs', 'searchArchive'] as const;

/** Invitations the over-limit batch wants to send: more than one tool may be called in a turn. */
export const OVER_LIMIT_INVITES = 45;

function sourceTool(name: string): AnyTool {
  return defineTool({
    name,
    description: `Searches ${name.slice('search'.length).toLowerCase()}.`,
    input: stringInput('query'),
    effect: 'read',
    execute: ({ query }: { query: string }) => ({ query, hits: [], source: name }),
  });
}

/**
 * A runaway: the model keeps calling tools, a different source or query every round, and every result
 * is new (and useless). Nothing repeats, so no loop is reported: the ceiling stops it.
 */
export const uselessToolsScenario: ScenarioSpec = {
  family: 'bounded',
  name: 'distinct useless calls',
  description: 'a new source or query every round, every result new and empty: only the ceiling stops it',
  kind: 'bounded',
  expected: 'MAX_ROUND_TRIPS',
  build() {
    const model = createAgentModel({
      decide: ({ round }) => ({
        calls: [
          {
            name: SOURCES[(round - 1) % SOURCES.length] as string,
            arguments: { query: `origin of the name Toolwarden, attempt ${round}` },
          },
        ],
      }),
      lastWords: 'I found nothing about the origin of the name.',
    });
    return {
      model,
      tools: SOURCES.map(sourceTool),
      messages: [{ role: 'user', content: 'Where does the name Toolwarden come from?' }],
      check: ({ outcome, roundTrips }) => [
        ...(roundTrips === DEFAULT_MAX_ROUND_TRIPS
          ? []
          : [`expected the default ceiling (${DEFAULT_MAX_ROUND_TRIPS}), got ${roundTrips} rounds`]),
        // The explanation names the one option that lets a long legitimate task finish.
        ...(explainStop(outcome).includes('raise maxRoundTrips')
          ? []
          : ['explainStop does not name maxRoundTrips']),
      ],
    };
  },
};

export const boundedScenarios: readonly ScenarioSpec[] = [
  uselessToolsScenario,
  {
    family: 'bounded',
    name: `${OVER_LIMIT_INVITES} invites, over the per-tool limit`,
    description: `one sendInvite per round for ${OVER_LIMIT_INVITES} guests: the limit (${DEFAULT_MAX_CALLS_PER_TOOL}) ends it`,
    kind: 'bounded',
    expected: 'TOOL_CALL_LIMIT',
    build() {
      const model = createAgentModel({
        decide: ({ toolMessages }) =>
          toolMessages.length < OVER_LIMIT_INVITES
            ? { calls: [{ name: 'sendInvite', arguments: { email: emailOf(toolMessages.length + 1) } }] }
            : { answer: `All ${OVER_LIMIT_INVITES} invitations are sent.` },
        lastWords: 'I sent some of the invitations.',
      });
      return {
        model,
        tools: [sendInviteTool()],
        messages: [{ role: 'user', content: `Invite the ${OVER_LIMIT_INVITES} guests on the list.` }],
        check: ({ outcome }) =>
          outcome.type === 'stopped'
            ? stopTextProblems(outcome.text, 'sendInvite', DEFAULT_MAX_CALLS_PER_TOOL)
            : [],
      };
    },
  },
];
