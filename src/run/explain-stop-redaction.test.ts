import { describe, expect, it } from 'vitest';
import type { Message } from '../core/message.js';
import type { RunEvent } from '../core/run-event.js';
import { HOSTILE_ERROR_MESSAGES } from '../redact/__fixtures__/hostile-error-messages.js';
import { leakedFragments } from '../redact/__fixtures__/leak-check.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { explainStop } from './explain-stop.js';
import { runToolLoop } from './run-tool-loop.js';

const USER: readonly Message[] = [{ role: 'user', content: 'go' }];

describe('explainStop of a run stopped by an error', () => {
  it('redacts the error: no fragment of the hostile corpus, the evidence keeps the error', async () => {
    for (const { name, message, secrets } of HOSTILE_ERROR_MESSAGES) {
      const failure = new Error(message);
      const model = new ScriptedModel({
        script: () => {
          throw failure;
        },
      });
      const outcome = await runToolLoop({ model, messages: USER, tools: [] });
      expect(outcome).toMatchObject({ type: 'stopped', reason: 'MODEL_ERROR' });
      const text = explainStop(outcome);
      expect(text).toContain('the model call failed');
      expect({ name, leaked: leakedFragments(text, secrets) }).toEqual({ name, leaked: [] });
      expect(outcome.type === 'stopped' && outcome.evidence).toEqual({
        kind: 'error',
        error: failure,
        model: { attempts: 1, retryable: false, gaveUp: 'not-retryable' },
      });
    }
  });

  it("redacts the provider's error name read from the body (explainStop, the stop text, the run-end event)", async () => {
    for (const { name, message, secrets } of HOSTILE_ERROR_MESSAGES) {
      const failure = Object.assign(new Error('Bad Request'), {
        statusCode: 400,
        responseBody: JSON.stringify({ error: { code: message } }),
      });
      const model = new ScriptedModel({
        script: () => {
          throw failure;
        },
      });
      const events: RunEvent[] = [];
      const outcome = await runToolLoop({
        model,
        messages: USER,
        tools: [],
        onEvent: (event) => events.push(event),
      });
      expect(outcome).toMatchObject({ type: 'stopped', evidence: { model: { status: 400 } } });
      const shown = [
        explainStop(outcome),
        outcome.type === 'stopped' ? outcome.text : '',
        JSON.stringify(events),
      ];
      expect(shown[0]).toContain('the model provider answered 400');
      for (const text of shown) {
        expect({ name, leaked: leakedFragments(text, secrets) }).toEqual({ name, leaked: [] });
      }
    }
  });

  it('says so when the error cannot be printed', async () => {
    const unprintable = {
      toString() {
        throw new Error('no');
      },
    };
    const model = new ScriptedModel({
      script: () => {
        throw unprintable;
      },
    });
    const outcome = await runToolLoop({ model, messages: USER, tools: [] });
    expect(explainStop(outcome)).toContain('an error that cannot be printed');
  });
});
