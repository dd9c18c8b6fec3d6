export {
  type CollectStreamOptions,
  collectModelStream,
  type ModelStreamDelta,
} from '../model/collect-model-stream.js';
export type { AssembledPart } from '../model/stream-assembly.js';
export { assistantWithCalls, type CallSpec } from './assistant-with-calls.js';
export { historyProblems } from './history-problems.js';
export { type EventRecorder, recordEvents } from './record-events.js';
export {
  type ScriptAnswer,
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptStep,
  type StreamStep,
} from './scripted-model.js';
export { storeWith } from './store-with.js';
export { type StreamOfOptions, streamOf } from './stream-of.js';
