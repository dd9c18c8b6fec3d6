import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
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
      expect(outcome).toMatchObject({ type: 'stopped', reason: 'model-error' });
      const text = explainStop(outcome);
      expect(text).toContain('the model call failed');
      expect({ name, leaked: leakedFragments(text, secrets) }).toEqual({ name, leaked: [] });
      expect(outcome.type === 'stopped' && outcome.evidence).toEqual({ kind: 'error', error: failure });
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
