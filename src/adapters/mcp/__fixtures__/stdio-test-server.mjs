// A small MCP server over stdio for the proxy's tests: `grow` adds a tool and announces the list change,
// `env` tells which environment variables the server got, `broken` answers with a result that is not a
// CallToolResult, `slow` answers after the milliseconds it is given, `exit` answers and then exits.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const object = { type: 'object', properties: {} };
const tools = [
  { name: 'grow', description: 'Adds the tool "grown".', inputSchema: object },
  { name: 'env', description: 'The names of the environment variables.', inputSchema: object },
  { name: 'broken', description: 'Answers with a broken result.', inputSchema: object },
  {
    name: 'slow',
    description: 'Answers after ms milliseconds.',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
  },
  { name: 'exit', description: 'Answers, then the server exits.', inputSchema: object },
];

const server = new Server(
  { name: 'stdio-test-server', version: '0' },
  { capabilities: { tools: { listChanged: true } } },
);
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case 'grow':
      if (!tools.some((tool) => tool.name === 'grown'))
        tools.push({ name: 'grown', description: 'A tool added later.', inputSchema: object });
      await server.sendToolListChanged();
      return { content: [{ type: 'text', text: 'grown' }] };
    case 'grown':
      return { content: [{ type: 'text', text: 'I am new' }] };
    case 'env':
      return { content: [{ type: 'text', text: JSON.stringify(Object.keys(process.env).sort()) }] };
    case 'broken':
      return { content: [{ type: 42 }] };
    case 'slow':
      await new Promise((resolve) => setTimeout(resolve, request.params.arguments?.ms ?? 0));
      return { content: [{ type: 'text', text: 'done' }] };
    case 'exit':
      setImmediate(() => process.exit(0));
      return { content: [{ type: 'text', text: 'bye' }] };
    default:
      return { content: [{ type: 'text', text: 'unknown tool' }], isError: true };
  }
});
await server.connect(new StdioServerTransport());
