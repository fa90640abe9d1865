/** ES LowercaseProcessor (Locale.ROOT lower-casing). */
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { stringProcessor } from './string-processor.js';

export const lowercase = (config: ProcessorConfig): ProcessorBody => stringProcessor(config, (s) => s.toLowerCase());
