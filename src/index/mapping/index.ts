export * from './types.js';
export * from './parse-mapping.js';
export * from './merge-mapping.js';
export * from './render-mapping.js';
export * from './resolve.js';
export * from './field-values.js';
export * from './document-parser.js';
export * from './feature-values.js';
