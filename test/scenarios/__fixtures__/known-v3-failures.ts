/**
 * The v3 scenarios (issue 24) that the current guard does not end as they state, by name, each with why
 * (what `src/guard/detect-loops.ts` and the limits do with it today). `v3-scenarios.test.ts` holds this
 * list to the truth both ways: a scenario listed here that now ends as expected fails it (remove the
 * entry), and so does a v3 scenario that fails without being listed. Empty when guard v3 is done.
 */
export const KNOWN_V3_FAILURES: Readonly<Record<string, string>> = {
  // 1. An identical write acknowledgement that opens new state.
  'wizard: Next acks {"ok":true}, new step':
    'exact-repeat: click (effect unknown) is a write record, counted from the request start; the new page read between does not reset it: stop at the 3rd click (round 6)',
  'viewer: PageDown through a contract':
    'exact-repeat: the 3rd identical pressKey/{"ok":true} (a write, counted from the request start) stops at round 6; the new screens between count for nothing',
  'board: advance T-7 three stages':
    'exact-repeat: the 3rd advanceTicket(T-7)/{"ok":true} stops at round 6, though getTicket showed a new stage after each',
  'viewer: PageDown past the last screen':
    'exact-repeat stops the 3rd PageDown at round 6, before the repeated screen (round 7) shows the loop: the ack is judged, not the state it opens',
  'board: advance T-7 past done':
    'exact-repeat stops the 3rd advance at round 6 while getTicket still brings a new stage (round 7); the loop shows at round 9',
  // 2. Identical results for distinct entities.
  'one policy text for three managers':
    'same-result: 3 distinct getApprovalPolicy calls with one content-bearing result stop (round 4), whatever the ids (taken from listManagers)',
  'link check: one 404 page for three URLs':
    'same-result: three distinct URLs of the sitemap answering one 404 body stop at round 7',
  'fan-out: one SLA for three vendors':
    'same-result counts the three distinct calls of one response: stop at round 2, with no warning before',
  'the same three managers, round and round':
    'same-result stops at round 4 (three distinct ids), before the model asks for m-17 again (round 5, the loop)',
  // 3. A shell tool between edits.
  'bash: same jest failure 3 times, then a pass':
    'exact-repeat: bash (effect unknown) is a write record counted from the request start, so `npm test` with the same output stops at its 3rd run (round 5); the sed edits between do not count',
  'bash (a write): pytest fails alike 3 times':
    'exact-repeat: the 3rd identical `pytest` run stops at round 5 (bash declared a write: counted from the request start)',
  'bash: go build, edit, git diff, go build':
    'exact-repeat: the 3rd identical `go build` stops at round 7, though each edit and each git diff between was new',
  'bash: the same tests under four spellings':
    'bash is a write: same-result skips writes, and four distinct commands are no exact repeat; only the period-4 cycle fires, at round 8 (deadline 5)',
  // 4. A raised ceiling.
  '60-page pagination, maxRoundTrips 70':
    'TOOL_CALL_LIMIT: the per-tool limit (DEFAULT_MAX_CALLS_PER_TOOL, 40) refuses the 41st listShipments; raising maxRoundTrips leaves it at 40 and the stop does not say to raise limits.perTool',
  '50 price updates, maxRoundTrips 60':
    'TOOL_CALL_LIMIT: the per-tool limit of 40 stops the 41st updatePrice; maxRoundTrips 60 does not raise it',
  'raised ceiling, record 43 refused again':
    'TOOL_CALL_LIMIT at round 41 ends the run before the loop (round 44); with the per-tool limit raised, exact-repeat on the refusal must still stop it by round 47',
  // 5. Progress reset by writes that change nothing.
  'an import re-run after each fix, clean third':
    'exact-repeat warns (and notes) at the 2nd identical runImport (an idempotent write, counted from the request start) though a distinct fixRow came between',
  'reworded notes, the case never changes':
    'each reworded addNote is a new write call, so the round is `changed` and getCase starts a new situation; no detector compares reads across distinct writes: MAX_ROUND_TRIPS at 50',
  'one fix, reworded, the same test failure':
    'each reworded editFile is `changed`, so the identical runTests after it is a new situation: MAX_ROUND_TRIPS at 50',
  'purging a cache that is not the problem':
    'each reworded purgeCache is `changed`, so the identical fetchPage after it is a new situation: MAX_ROUND_TRIPS at 50',
  // 6. A fresh token in the arguments, the result the same.
  'continueFrom tokens, the same page each time':
    '"continueFrom" is not in DEFAULT_VOLATILE_RESULT_FIELDS: the token makes each call and each result distinct, so neither exact-repeat nor same-result fires; TOOL_CALL_LIMIT at 41',
  'a fresh clientRef per search, echoed back':
    'the echoed clientRef makes each result distinct (not a default volatile field), and each call too: no detector fires; TOOL_CALL_LIMIT at 41',
  // 7. Identical but for volatile-looking values.
  'a status whose only change is observedAt':
    '"observedAt" is not a default volatile field: every result differs, so exact-repeat never matches; TOOL_CALL_LIMIT at 41',
  'a fresh responseUuid on the same refusal':
    '"responseUuid" is not a default volatile field (requestId is): every result differs; TOOL_CALL_LIMIT at 41',
  'a growing attempt counter':
    'the attempt counter makes every result differ: exact-repeat never matches; TOOL_CALL_LIMIT at 41',
  'a request id inside plain text':
    'VOLATILE_FIELD_PATTERN applies only to JSON fields: an id inside text makes every result differ; TOOL_CALL_LIMIT at 41',
  // 8. A write repeated with a fresh client id.
  'one chat post sent again and again':
    'a new clientMsgId makes each postMessage a distinct call (and a new idempotency key: it posts again); exact-repeat needs the same call, same-result skips writes: 40 posts, TOOL_CALL_LIMIT at 41',
  'one ticket created again and again':
    'a new requestId per call: distinct write calls, distinct results (new ticket ids); no detector fires: 40 tickets, TOOL_CALL_LIMIT at 41',
  'one card charged again and again':
    'a new idempotencyKey per call: distinct write calls, distinct chargeIds; no detector fires: 40 charges, TOOL_CALL_LIMIT at 41',
  // 9. A write flip-flopping between states.
  'priority high, normal, high, normal, ...':
    'the reworded reason makes every setPriority a distinct call: no exact-repeat, and `cycle` compares rounds by call digest, so it never matches; TOOL_CALL_LIMIT at 41',
  'a flag on, read, off, read, on, ...':
    'each setFlag (a new comment) is a distinct `changed` write, so getFlag starts a new situation each time; cycle never matches: MAX_ROUND_TRIPS at 50',
  'a meeting moved 10:00, 14:00, 10:00, ...':
    'the reworded note makes every moveEvent a distinct call: no exact-repeat, no cycle; TOOL_CALL_LIMIT at 41',
  // 10. A denial worked around by switching tools.
  'refund, credit, discount: one refusal':
    'a ToolInputError is outcome "error": same-result counts only content results and denials, and only within one tool; the amounts change, so no exact repeat: MAX_ROUND_TRIPS at 50',
  'delete, archive, transfer: all denied':
    'same-result over denials stays within one tool, so switching tools evades it; exact-repeat needs 3 of one call (round 7); the period-3 cycle fires at round 6 (deadline 5)',
  'a blocked file sent another way':
    'errors across three tools with reworded messages: no detector compares errors across tools or arguments: MAX_ROUND_TRIPS at 50',
  // 11. The same error for many spellings of one input.
  'one Saturday in seven date formats':
    'outcome "error" with distinct arguments: exact-repeat needs one call, same-result ignores errors; the model gives up after 7 and the run completes',
  'one phone number in six spellings':
    'refusals (outcome "error") of six spellings: no detector compares errors across arguments, 6 spellings exceed the cycle period 4; exact-repeat only sees spelling 1 again at round 7, and no-progress stops at round 10 (deadline 5)',
  // 12. A failing call repeated once per user request.
  'the same refused post after each "try again"':
    'exact-repeat counts an earlier request only when it ended repeating the call (repeatedBefore: 2 or more to its end); one failure per request never counts: all 5 requests complete',
  'a denied deploy after each "try again"':
    'one PERMISSION_DENIED per request: repeatedBefore ignores a request with one occurrence, and same-result over denials is per request: all 5 complete',
  'read, then the same refused cancel, each request':
    'one refused cancelOrder per request (after a re-read): repeatedBefore ignores it; all 5 requests complete',
};
