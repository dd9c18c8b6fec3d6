/** One module with a correct tool and each kind of broken one, as a real tools module drifts. */

export { queryOrderStatusDotted } from './broken/illegal-name.js';
export { createInvoice } from './broken/input-schema-does-not-compile.js';
export { lookupCustomer } from './broken/nothing-to-check.js';
export { queryOrderStatus } from './broken/query-order-status.js';
export { getOrderStatus } from './correct-tools.js';
