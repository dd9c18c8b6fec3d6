import { beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_V3_FAILURES } from './__fixtures__/known-v3-failures.js';
import { GUARD_CLASS_NAMES, GUARD_CLASSES, guardClassFamily } from './guard-class.js';
import { loopScenarios, scenariosOf } from './loop-scenarios.js';
import { GUARDED_POLICY, type PolicyRun, runScenario } from './run-loop-scenarios.js';
import { guardClassCounts } from './scenario-totals.js';

const v3 = scenariosOf('v3');
const known = (name: string) => Object.hasOwn(KNOWN_V3_FAILURES, name);

describe('the v3 evidence (issue 24)', () => {
  it('follows the v2 corpus in the suite, each scenario with a class of the issue and its family', () => {
    const firstV3 = loopScenarios.findIndex((scenario) => scenario.set === 'v3');
    expect(loopScenarios.slice(firstV3).every((scenario) => scenario.set === 'v3')).toBe(true);
    expect(scenariosOf('v2').every((scenario) => scenario.guardClass === undefined)).toBe(true);
    for (const scenario of v3) {
      expect(scenario.guardClass, scenario.name).toBeDefined();
      if (scenario.guardClass !== undefined)
        expect(scenario.family, scenario.name).toBe(guardClassFamily(scenario.guardClass));
    }
  });

  it.each(GUARD_CLASS_NAMES.map((name) => [GUARD_CLASSES[name].number, name] as const))(
    'class %i (%s) has at least 3 legitimate and 3 loop scenarios, each loop with its evident round',
    (_number, name) => {
      const ofClass = v3.filter((scenario) => scenario.guardClass === name);
      expect(ofClass.filter((scenario) => scenario.kind === 'legitimate').length).toBeGreaterThanOrEqual(3);
      const loops = ofClass.filter((scenario) => scenario.kind === 'loop');
      expect(loops.length).toBeGreaterThanOrEqual(3);
      for (const loop of loops) expect(loop.evidentAt, loop.name).toBeGreaterThanOrEqual(2);
    },
  );

  it('lists as known failures only v3 scenarios, each with why', () => {
    const names = new Set(v3.map((scenario) => scenario.name));
    for (const [name, why] of Object.entries(KNOWN_V3_FAILURES)) {
      expect(names.has(name), `${name} is no v3 scenario`).toBe(true);
      expect(why.length, name).toBeGreaterThan(20);
    }
  });
});

describe('every v3 scenario under the guarded defaults', () => {
  const runs = new Map<string, PolicyRun>();
  beforeAll(async () => {
    for (const scenario of v3) runs.set(scenario.name, await runScenario(scenario, GUARDED_POLICY));
  }, 60_000);

  it.each(v3.map((scenario) => [scenario.id, scenario.name] as const))(
    'scenario %i (%s) ends as it states, or is a known failure that still fails',
    (_id, name) => {
      const run = runs.get(name);
      expect(run?.wellFormed).toBe(true);
      if (known(name)) {
        expect(
          run?.problems.length,
          `${name} now ends as expected: remove it from KNOWN_V3_FAILURES`,
        ).toBeGreaterThan(0);
      } else {
        expect(
          run?.problems,
          `${name} fails: fix the guard, or list it in KNOWN_V3_FAILURES with why`,
        ).toEqual([]);
      }
    },
  );

  it('counts per class what ended as expected: the known failures are the ones not counted', () => {
    const rows = v3.map((scenario) => {
      const guarded = runs.get(scenario.name) as PolicyRun;
      return { scenario, guarded, stepCaps: [] };
    });
    const counts = guardClassCounts(rows);
    expect(counts.map((count) => count.guardClass)).toEqual(GUARD_CLASS_NAMES);
    for (const count of counts) {
      const failing = v3.filter((s) => s.guardClass === count.guardClass && known(s.name));
      expect(count.notAsExpected, count.guardClass).toEqual(failing.map((s) => s.id));
      const ofKind = (kind: string) => v3.filter((s) => s.guardClass === count.guardClass && s.kind === kind);
      const passing = (kind: string) => ofKind(kind).filter((s) => !known(s.name)).length;
      expect(count.legitimate).toEqual({ count: passing('legitimate'), of: ofKind('legitimate').length });
      expect(count.loops).toEqual({ count: passing('loop'), of: ofKind('loop').length });
    }
  });
});
