// The floors of src/, bottom to top (drawn in src/README.md); read by .dependency-cruiser.cjs and src/layers.test.ts.

/** Bottom to top. A floor is a folder of src/ (or a file directly in src/). */
const FLOORS = [
  'core',
  'util',
  'schema',
  'serialize',
  'redact',
  'options',
  'gate',
  'store',
  'model',
  'tools',
  'guard',
  'chain',
  'run',
  'ports',
  'telemetry',
  'audit',
  'testing',
  'formats',
  'adapters',
  'bfcl',
  'check',
  'report',
  'demo',
  'cli',
  'index.ts',
];

/** Imports that point up a floor, each with its reason. */
const UPWARD = [];

module.exports = { FLOORS, UPWARD };
