/**
 * errors/ — the ES error model: the EsError base, one class per ES error type, and their rendering
 * into ES response bodies. A leaf: imports nothing from the rest of the project and no Node APIs.
 * Invariant: every failure a client can cause is an EsError (or a RestStatusError for the few
 * routing errors ES reports as a bare string), so the HTTP layer never shows a stack trace.
 */
export * from './es-error.js';
export * from './catalog.js';
export { previewInput, MAX_MESSAGE_CHARS } from './input-preview.js';
export * from './input-preview.js';
export * from './aggregations.js';
