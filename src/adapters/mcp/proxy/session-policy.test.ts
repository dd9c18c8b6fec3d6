import { describe, expect, it } from 'vitest';
import {
  CREATE_ENTITIES,
  ECHO,
  READ_FILE,
  SEQUENTIAL_THINKING,
  textResult,
  thoughtResult,
  WRITE_FILE,
} from './__fixtures__/mcp-tools.js';
import type { CallDecision } from './call-decision.js';
import type { ProxiedTool } from './mcp-shapes.js';
import { parseProxyConfig } from './proxy-config.js';
import { createSessionPolicy, proxiedCall, type SessionPolicy } from './session-policy.js';

const TOOLS: readonly ProxiedTool[] = [SEQUENTIAL_THINKING, WRITE_FILE, READ_FILE, ECHO, CREATE_ENTITIES];

function policy(config: unknown = {}, tools: readonly ProxiedTool[] = TOOLS): SessionPolicy {
  return createSessionPolicy({ config: parseProxyConfig(config, 'test'), tools });
}

const kindOf = (decision: CallDecision) => (decision.kind === 'refuse' ? decision.code : decision.kind);

describe('createSessionPolicy: decide', () => {
  it('refuses what the deny list names or the allow list leaves out, deny winning', () => {
    const session = policy({ allow: ['read_*', 'echo', 'sequentialthinking'], deny: ['echo'] });
    expect(session.decide(proxiedCall('echo', {}))).toEqual({
      kind: 'refuse',
      code: 'PERMISSION_DENIED',
      text: 'PERMISSION_DENIED: This action is not permitted; do not repeat this call.',
    });
    expect(kindOf(session.decide(proxiedCall('create_entities', {})))).toBe('PERMISSION_DENIED');
    expect(kindOf(session.decide(proxiedCall('read_text_file', {})))).toBe('forward');
  });
});

describe('createSessionPolicy: confirmation', () => {
  it('asks before a tool the server marks destructive, showing the arguments', () => {
    const session = policy();
    expect(session.decide(proxiedCall('write_file', { path: '/tmp/a', content: 'x' }))).toEqual({
      kind: 'confirm',
      message:
        'Allow the tool "write_file" to run with these arguments?\n{\n  "path": "/tmp/a",\n  "content": "x"\n}',
    });
    // Untrusted annotations: only a hint toward caution is believed; an unannotated tool is not confirmed.
    expect(kindOf(session.decide(proxiedCall('echo', {})))).toBe('forward');
    expect(kindOf(session.decide(proxiedCall('create_entities', {})))).toBe('forward');
  });

  it('believes a warning over a claim of safety from an untrusted server, and MCP when the server is trusted', () => {
    const contradictory: ProxiedTool = {
      name: 'wipe',
      annotations: { readOnlyHint: true, destructiveHint: true },
    };
    expect(kindOf(policy({}, [contradictory]).decide(proxiedCall('wipe', {})))).toBe('confirm');
    expect(kindOf(policy({ trustAnnotations: true }, [contradictory]).decide(proxiedCall('wipe', {})))).toBe(
      'forward',
    );
  });

  it("with trustAnnotations, follows MCP's defaults: unannotated and non-read-only tools are destructive", () => {
    const session = policy({ trustAnnotations: true });
    expect(kindOf(session.decide(proxiedCall('echo', {})))).toBe('confirm');
    expect(kindOf(session.decide(proxiedCall('write_file', {})))).toBe('confirm');
    expect(kindOf(session.decide(proxiedCall('create_entities', {})))).toBe('forward');
    expect(kindOf(session.decide(proxiedCall('read_text_file', {})))).toBe('forward');
  });

  it('confirms the tools a list names, and none when confirm is false', () => {
    expect(
      kindOf(policy({ confirm: { tools: ['echo', 'create_*'] } }).decide(proxiedCall('create_entities', {}))),
    ).toBe('confirm');
    expect(kindOf(policy({ confirm: { tools: ['echo'] } }).decide(proxiedCall('write_file', {})))).toBe(
      'forward',
    );
    expect(kindOf(policy({ confirm: false }).decide(proxiedCall('write_file', {})))).toBe('forward');
  });

  it("turns the user's answer into a forward or a refusal", () => {
    const session = policy();
    expect(session.confirmed(proxiedCall('write_file', {}), 'decline')).toEqual({
      kind: 'refuse',
      code: 'PERMISSION_DENIED',
      text: 'PERMISSION_DENIED: The user declined this action; do not repeat this call.',
    });
    expect(kindOf(session.confirmed(proxiedCall('write_file', {}), 'cancel'))).toBe('PERMISSION_DENIED');
    expect(session.confirmed(proxiedCall('write_file', {}), 'unavailable')).toEqual({
      kind: 'refuse',
      code: 'PERMISSION_DENIED',
      text: "PERMISSION_DENIED: This action needs the user's confirmation, which this client cannot ask for; do not repeat this call.",
    });
    expect(session.confirmed(proxiedCall('write_file', {}), 'accept')).toMatchObject({ kind: 'forward' });
  });

  it('runs an unconfirmable call under allow-and-audit', () => {
    const session = policy({ confirm: { ifNoElicitation: 'allow-and-audit' }, audit: { jsonl: 'a.jsonl' } });
    expect(session.confirmed(proxiedCall('write_file', {}), 'unavailable')).toEqual({ kind: 'forward' });
  });
});

describe('createSessionPolicy: the loop guard over the session', () => {
  /** One call through the policy as the bridge makes it: decide, then observe what upstream answered. */
  function call(
    session: SessionPolicy,
    name: string,
    args: unknown,
    answer: () => ReturnType<typeof thoughtResult>,
  ) {
    const decision = session.decide(proxiedCall(name, args));
    if (decision.kind !== 'forward') return { decision: kindOf(decision), observed: undefined };
    return {
      decision: 'forward',
      observed: session.observe(proxiedCall(name, args), { kind: 'result', result: answer() }).kind,
    };
  }

  it("lets a legitimate sequence through: sequential-thinking's distinct thoughts are never stopped", () => {
    const session = policy();
    const seen = Array.from({ length: 40 }, (_, index) => {
      const args = {
        thought: `step ${index + 1}`,
        thoughtNumber: index + 1,
        totalThoughts: 40,
        nextThoughtNeeded: true,
      };
      return call(session, 'sequentialthinking', args, () => thoughtResult(index + 1, index + 1));
    });
    expect(seen.every((step) => step.decision === 'forward' && step.observed === 'pass')).toBe(true);
  });

  it('stops the same call with the same result; a repeat of a tool of unknown effect runs again and is refused only for the same result', () => {
    const session = policy();
    const args = { message: 'same' };
    let answer = 'Echo: same';
    const steps = Array.from({ length: 4 }, () => call(session, 'echo', args, () => textResult(answer)));
    expect(steps).toEqual([
      { decision: 'forward', observed: 'pass' },
      { decision: 'forward', observed: 'warn' },
      { decision: 'forward', observed: 'stop' },
      // echo may be a read (unknown effect): it goes upstream, and the same result again is the loop.
      { decision: 'forward', observed: 'repeat' },
    ]);
    expect(
      session.observe(proxiedCall('echo', args), { kind: 'result', result: textResult(answer) }),
    ).toMatchObject({
      kind: 'repeat',
      refusal: {
        kind: 'refuse',
        code: 'LOOP_DETECTED',
        text: 'LOOP_DETECTED: This call to echo ran again and gave the same result as before, which you already have: its loop was stopped. Use the results you have or try something else.',
      },
    });
    // Something changed upstream: a new result is no repeat, and it passes.
    answer = 'Echo: something new';
    expect(call(session, 'echo', args, () => textResult(answer))).toEqual({
      decision: 'forward',
      observed: 'pass',
    });
  });

  it('refuses a stopped write before it goes upstream (a write, or a tool that says it is destructive)', () => {
    const writes = policy({ idempotentWrites: { tools: ['create_entities'] }, confirm: false });
    const steps = Array.from({ length: 4 }, () =>
      call(writes, 'create_entities', { name: 'a' }, () => textResult('created')),
    );
    expect(steps.map((step) => step.observed ?? step.decision)).toEqual([
      'pass',
      'warn',
      'stop',
      'LOOP_DETECTED',
    ]);
    expect(writes.decide(proxiedCall('create_entities', { name: 'a' }))).toEqual({
      kind: 'refuse',
      code: 'LOOP_DETECTED',
      text: 'LOOP_DETECTED: This call to create_entities repeats a loop that was stopped: it gave the same result each time. Use the results you have or try something else.',
    });
    // Other calls go on: only the call that looped is refused.
    expect(kindOf(writes.decide(proxiedCall('create_entities', { name: 'b' })))).toBe('forward');
    // Untrusted, write_file is of unknown effect, but its destructiveHint is believed: refused unrun too.
    const destructive = policy({ confirm: false });
    const written = Array.from({ length: 4 }, () =>
      call(destructive, 'write_file', { path: 'a' }, () => textResult('ok')),
    );
    expect(written.map((step) => step.observed ?? step.decision)).toEqual([
      'pass',
      'warn',
      'stop',
      'LOOP_DETECTED',
    ]);
  });

  it('judges a trusted read by its result as well: a changed answer passes, the same one is refused', () => {
    const session = policy({ trustAnnotations: true });
    const read = (text: string) =>
      call(session, 'read_text_file', { path: 'a' }, () => textResult(text)).observed;
    expect([read('v1'), read('v1'), read('v1'), read('v1'), read('v2'), read('v2')]).toEqual([
      'pass',
      'warn',
      'stop',
      'repeat',
      'pass',
      'warn',
    ]);
  });

  it('gives the model a note on the warning and on the stop (none with nudge off)', () => {
    const session = policy();
    const observe = () =>
      session.observe(proxiedCall('echo', {}), { kind: 'result', result: textResult('x') });
    observe();
    const warning = observe();
    expect(warning).toMatchObject({ kind: 'warn', evidence: { detector: 'exact-repeat' } });
    expect(warning.kind === 'warn' ? warning.note : '').toMatch(/^NOTE from the runtime: echo was called/);
    expect(observe()).toMatchObject({ kind: 'stop', evidence: { detector: 'exact-repeat', occurrences: 3 } });
    const quiet = policy({ loopGuard: { nudge: false } });
    quiet.observe(proxiedCall('echo', {}), { kind: 'result', result: textResult('x') });
    expect(
      quiet.observe(proxiedCall('echo', {}), { kind: 'result', result: textResult('x') }),
    ).not.toHaveProperty('note');
  });

  it('sees a repeated thought as a loop once its growing history counter is ignored (a loop hint)', () => {
    const args = { thought: 'again', thoughtNumber: 3, totalThoughts: 5, nextThoughtNeeded: true };
    const repeat = (session: SessionPolicy) =>
      Array.from({ length: 4 }, (_, index) =>
        call(session, 'sequentialthinking', args, () => thoughtResult(3, index + 1)),
      ).map((step) => step.observed ?? step.decision);
    // Its effect unknown, the tool may be doing work: a count one up per call may be that work (a queue's
    // processed count), so only a read's counter is taken as counting the calls.
    expect(repeat(policy())).toEqual(['pass', 'pass', 'pass', 'pass']);
    const hinted = policy({
      loopGuard: { hints: { sequentialthinking: { ignoreFields: ['thoughtHistoryLength'] } } },
    });
    expect(repeat(hinted)).toEqual(['pass', 'warn', 'stop', 'repeat']);
  });

  it('stops a tool that stays unavailable; a stopped write runs again once something new was read', () => {
    const session = policy({ idempotentWrites: { tools: ['create_entities'] } });
    const down = () =>
      session.observe(proxiedCall('echo', {}), { kind: 'failed', transient: true, text: 'ECONNRESET' });
    expect([down(), down(), down(), down(), down()].map((o) => o.kind)).toEqual([
      'pass',
      'pass',
      'pass',
      'pass',
      'stop',
    ]);
    // Still down: the same failure again is the loop.
    expect(down().kind).toBe('repeat');
    const create = (name: string) =>
      session.observe(proxiedCall('create_entities', { name }), {
        kind: 'result',
        result: textResult('created'),
      });
    create('a');
    create('a');
    expect(create('a').kind).toBe('stop');
    expect(kindOf(session.decide(proxiedCall('create_entities', { name: 'a' })))).toBe('LOOP_DETECTED');
    // Another write acknowledged alike tells nothing new: the stop holds.
    create('b');
    expect(kindOf(session.decide(proxiedCall('create_entities', { name: 'a' })))).toBe('LOOP_DETECTED');
    session.observe(proxiedCall('read_graph', {}), { kind: 'result', result: textResult('a, b') });
    expect(kindOf(session.decide(proxiedCall('create_entities', { name: 'a' })))).toBe('forward');
  });

  it('refuses a stopped write for as long as the guard remembers it (its window of rounds), then lets it run', () => {
    // Reads that tell nothing new (one short answer for every file, first given before the stop) keep it.
    const session = policy({ idempotentWrites: { tools: ['create_entities'] }, trustAnnotations: true });
    const other = (index: number) =>
      session.observe(proxiedCall('read_text_file', { index }), {
        kind: 'result',
        result: textResult('empty'),
      });
    other(-1);
    for (let index = 0; index < 3; index++)
      session.observe(proxiedCall('create_entities', {}), { kind: 'result', result: textResult('x') });
    for (let index = 0; index < 31; index++) other(index);
    expect(kindOf(session.decide(proxiedCall('create_entities', {})))).toBe('LOOP_DETECTED');
    other(31);
    expect(kindOf(session.decide(proxiedCall('create_entities', {})))).toBe('forward');
  });

  it('with loopGuard false, observes nothing and refuses no repeat', () => {
    const session = policy({ loopGuard: false });
    const steps = Array.from({ length: 6 }, () => call(session, 'echo', {}, () => textResult('x')));
    expect(steps.every((step) => step.decision === 'forward' && step.observed === 'pass')).toBe(true);
  });

  it('reads the new annotations after the tool list changed', () => {
    const session = policy();
    expect(kindOf(session.decide(proxiedCall('echo', {})))).toBe('forward');
    session.setTools([{ name: 'echo', annotations: { destructiveHint: true } }]);
    expect(kindOf(session.decide(proxiedCall('echo', {})))).toBe('confirm');
  });
});
