import { describe, expect, it } from 'vitest';
import { createSseParser } from '../sse-events.js';
import { ResponsesStreamReader } from './responses-stream-reader.js';

let sequence = 0;
const ev = (type: string, data: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: sequence++ })}\n\n`;

const RESPONSE = { id: 'resp_1', object: 'response', status: 'in_progress', output: [] };
const CREATED = ev('response.created', { response: RESPONSE });
const MESSAGE = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
};
const TEXT = [
  ev('response.output_item.added', { output_index: 0, item: { ...MESSAGE, content: [] } }),
  ev('response.content_part.added', {
    output_index: 0,
    item_id: 'msg_1',
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [] },
  }),
  ev('response.output_text.delta', {
    output_index: 0,
    item_id: 'msg_1',
    content_index: 0,
    delta: 'Checking.',
  }),
  ev('response.output_item.done', { output_index: 0, item: MESSAGE }),
];
const SECRET_ARGS = '{"key":"sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}';
const CALL_ITEM = {
  type: 'function_call',
  id: 'fc_1',
  call_id: 'c1',
  name: 'getStatus',
  arguments: SECRET_ARGS,
};
const CALL = [
  ev('response.output_item.added', { output_index: 1, item: { ...CALL_ITEM, arguments: '' } }),
  ev('response.function_call_arguments.delta', {
    output_index: 1,
    item_id: 'fc_1',
    delta: SECRET_ARGS.slice(0, 9),
  }),
  ev('response.function_call_arguments.delta', {
    output_index: 1,
    item_id: 'fc_1',
    delta: SECRET_ARGS.slice(9),
  }),
  ev('response.function_call_arguments.done', { output_index: 1, item_id: 'fc_1', arguments: SECRET_ARGS }),
  ev('response.output_item.done', { output_index: 1, item: CALL_ITEM }),
];
const COMPLETED = ev('response.completed', {
  response: {
    ...RESPONSE,
    status: 'completed',
    output: [MESSAGE, CALL_ITEM],
    usage: { input_tokens: 20, output_tokens: 9 },
  },
});

function drive(
  reader: ResponsesStreamReader,
  text: string,
  onDecide: (reader: ResponsesStreamReader) => string,
) {
  let out = '';
  for (const event of createSseParser(1 << 20).push(text)) {
    const step = reader.push(event);
    out += step.write;
    if (step.decide) out += onDecide(reader);
  }
  return out;
}

const types = (text: string) => [...text.matchAll(/^event: (.*)$/gm)].map((match) => match[1]);
const options = { redactArguments: false, maxHeldBytes: 1 << 20 };

describe('ResponsesStreamReader', () => {
  it('passes text at once, holds the function call until the response completes, then releases it', () => {
    const reader = new ResponsesStreamReader(options);
    const before = drive(reader, [CREATED, ...TEXT, ...CALL].join(''), () => '');
    expect(types(before)).toEqual(['response.created', ...TEXT.map((event) => types(event)[0])]);
    let answer: ReturnType<ResponsesStreamReader['answer']> | undefined;
    const after = drive(reader, COMPLETED, (r) => {
      answer = r.answer();
      return r.release();
    });
    expect(answer).toMatchObject({
      id: 'resp_1',
      calls: [{ id: 'c1', name: 'getStatus', arguments: SECRET_ARGS }],
      text: 'Checking.',
      finishReasons: ['completed'],
      usage: { inputTokens: 20, outputTokens: 9 },
    });
    expect(types(after)).toEqual([...CALL.map((event) => types(event)[0]), 'response.completed']);
  });

  it('redacts a released call’s arguments everywhere it appears', () => {
    const reader = new ResponsesStreamReader({ ...options, redactArguments: true });
    const out = drive(reader, [CREATED, ...CALL, COMPLETED].join(''), (r) => r.release());
    expect(out).not.toContain('sk-proj-abc');
    expect(out.match(/function_call_arguments.delta/g)?.length).toBe(2);
  });

  it('a stop completes the response with the gateway’s message and no function call', () => {
    const reader = new ResponsesStreamReader(options);
    const out = drive(reader, [CREATED, ...TEXT, ...CALL, COMPLETED].join(''), (r) => r.finish('I stopped.'));
    const completed = JSON.parse(out.trim().split('\n').at(-1)?.slice(6) ?? 'null');
    expect(completed.type).toBe('response.completed');
    expect(completed.response.output.map((item: { type: string }) => item.type)).toEqual([
      'message',
      'message',
    ]);
    expect(out).not.toContain('"type":"function_call"');
  });

  it('a continuation goes on in the app’s stream: no second response.created, its items after the app’s', () => {
    const first = new ResponsesStreamReader(options);
    drive(first, [CREATED, ...TEXT, ...CALL, COMPLETED].join(''), () => '');
    const next = new ResponsesStreamReader({ ...options, after: first });
    const out = drive(
      next,
      [
        CREATED.replace('resp_1', 'resp_2'),
        ...TEXT,
        COMPLETED.replace('resp_1', 'resp_2').replace(/,\{"type":"function_call"[^}]*\}/, ''),
      ].join(''),
      (r) => r.release(),
    );
    expect(types(out)).not.toContain('response.created');
    expect(out).toContain('"output_index":1');
    expect(out).not.toContain('"output_index":0');
    expect(next.answer().id).toBe('resp_2');
  });

  it('a cut stream ends with response.incomplete holding the text the app got and no call', () => {
    const reader = new ResponsesStreamReader(options);
    drive(reader, [CREATED, ...TEXT.slice(0, 3), ...CALL.slice(0, 2)].join(''), () => '');
    const end = reader.cut();
    const data = JSON.parse(end.trim().split('\n').at(-1)?.slice(6) ?? 'null');
    expect(data.type).toBe('response.incomplete');
    expect(data.response.output).toEqual([
      {
        ...MESSAGE,
        status: 'completed',
        content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
      },
    ]);
    expect(end).not.toContain('function_call');
  });
});
