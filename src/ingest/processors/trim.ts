/** ES TrimProcessor: Java's String.trim, which strips only code points ≤ U+0020. */
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { stringProcessor } from './string-processor.js';

export const trim = (config: ProcessorConfig): ProcessorBody => stringProcessor(config, (s) => s.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, ''));
