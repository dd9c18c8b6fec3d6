export { assistantWithCalls, type CallSpec } from './assistant-with-calls.js';
export { type EventRecorder, recordEvents } from './record-events.js';
