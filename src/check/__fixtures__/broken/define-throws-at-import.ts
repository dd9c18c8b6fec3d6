import { defineTool } from '../../../tools/define-tool.js';
import { getOrderStatus } from '../correct-tools.js';

export { getOrderStatus };

/** `defineTool` runs at import and throws: the module cannot load, so the check reports the module. */
export const queryOrderStatus = defineTool({
  name: 'query.order.status',
  description: 'Returns the status of an order.',
  effect: 'read',
  execute: () => ({ status: 'SUCCESS' }),
});
