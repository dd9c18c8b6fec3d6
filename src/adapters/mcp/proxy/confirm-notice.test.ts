import { describe, expect, it } from 'vitest';
import { ECHO, READ_FILE, WRITE_FILE } from './__fixtures__/mcp-tools.js';
import { cannotConfirmNotice, noElicitationNotice } from './confirm-notice.js';
import { parseProxyConfig } from './proxy-config.js';

const config = (json: unknown) => parseProxyConfig(json, 'test');

describe("the operator's notices about a client that cannot confirm", () => {
  it('say why the tool needs a yes, in the words of the config', () => {
    expect(cannotConfirmNotice('write_file', WRITE_FILE, config({}))).toContain(
      "refused write_file: it needs the user's confirmation (the server marks it destructiveHint: true)",
    );
    expect(cannotConfirmNotice('echo', ECHO, config({ confirm: { tools: ['ec*'] } }))).toContain(
      '(confirm.tools names it)',
    );
    expect(cannotConfirmNotice('echo', ECHO, config({ trustAnnotations: true }))).toContain(
      "(trustAnnotations: by MCP's defaults it is destructive",
    );
  });

  it('a session: the tools concerned (the first ten), refused or run unaudited as the config says; none, nothing', () => {
    const many = Array.from({ length: 12 }, (_, index) => ({ ...WRITE_FILE, name: `write_${index}` }));
    expect(noElicitationNotice([READ_FILE, ...many], config({}))).toMatch(
      /^this client cannot ask the user for confirmation \(no elicitation\): write_0, .*, write_9 and 2 more will be refused \(PERMISSION_DENIED\); set confirm.ifNoElicitation/,
    );
    expect(
      noElicitationNotice(
        [WRITE_FILE],
        config({ confirm: { ifNoElicitation: 'allow-and-audit' }, audit: { jsonl: 'a.jsonl' } }),
      ),
    ).toBe(
      'this client cannot ask the user for confirmation (no elicitation): write_file will run unconfirmed, each with an audit record (confirm.ifNoElicitation: "allow-and-audit")',
    );
    expect(noElicitationNotice([READ_FILE, ECHO], config({}))).toBeUndefined();
    expect(noElicitationNotice([WRITE_FILE], config({ confirm: false }))).toBeUndefined();
  });

  it('a tool name with control characters reaches the log without them', () => {
    const name = 'wipe\u001b[2J\nnow';
    expect(cannotConfirmNotice(name, { name, annotations: { destructiveHint: true } }, config({}))).toMatch(
      /^refused wipe\[2Jnow: /,
    );
  });
});
